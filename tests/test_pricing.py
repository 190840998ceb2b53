"""The price table: what a call cost, from the user's prices first, then the shipped defaults."""

from __future__ import annotations

import pytest

from app import composition
from app.errors import CrosstalkError
from app.history import Usage
from app.paths import DataDir
from app.pricing import DEFAULT_PRICES, Price, PriceTable, format_cost
from app.settings import load_settings

M = 1_000_000


def pattern(table: PriceTable, provider: str, model: str) -> str:
    found = table.match(provider, model)
    assert found is not None, f"{provider}:{model} has no price"
    return found.pattern


def test_each_kind_of_token_has_its_own_price() -> None:
    price = Price(input=2.0, cached=0.5, cache_write=2.5, output=8.0)
    # 1M input of which 200k were read from the cache and 100k written to it; 300k output
    usage = Usage(input=M, cached=200_000, cache_write=100_000, output=300_000, reasoning=50_000)
    fresh, cached, written, output = 700_000 * 2.0, 200_000 * 0.5, 100_000 * 2.5, 300_000 * 8.0
    assert price.cost(usage) == pytest.approx((fresh + cached + written + output) / M)


def test_reasoning_is_part_of_output_and_not_charged_twice() -> None:
    price = Price(input=0, output=10.0)
    assert price.cost(Usage(output=M, reasoning=M)) == pytest.approx(10.0)


def test_cached_and_written_input_cost_the_input_price_unless_given() -> None:
    price = Price(input=3.0, output=0)
    usage = Usage(input=M, cached=400_000, cache_write=100_000)
    assert price.cost(usage) == pytest.approx(3.0)


def test_more_cached_than_input_never_makes_a_negative_cost() -> None:
    price = Price(input=1.0, cached=0.1, output=0)
    assert price.cost(Usage(input=10, cached=M)) == pytest.approx(0.1)


def test_a_negative_price_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot be negative"):
        Price(input=1.0, output=-1.0)


def test_first_matching_default_wins_so_specific_patterns_come_first() -> None:
    table = PriceTable()
    assert pattern(table, "openai", "gpt-4.1-mini-2025-04-14") == "gpt-4.1-mini*"
    assert pattern(table, "openai", "gpt-4.1") == "gpt-4.1*"
    assert pattern(table, "openai", "gpt-5-nano") == "gpt-5-nano*"
    found = table.match("anthropic", "claude-opus-4-1-20250805")
    assert found is not None and found.price == DEFAULT_PRICES["claude-opus-4-1*"]
    assert found.source == "default"


def test_patterns_match_the_model_or_provider_and_model() -> None:
    table = PriceTable({"myhost:*": Price(input=1.0, output=1.0)})
    assert pattern(table, "myhost", "anything") == "myhost:*"
    assert pattern(table, "local", "smollm2") == "local:*"
    assert table.cost("local", "smollm2", Usage(input=M, output=M)) == 0.0  # free, not unknown


def test_user_prices_come_before_the_defaults() -> None:
    mine = Price(input=1.0, output=1.0)
    table = PriceTable({"gpt-4.1*": mine, "gpt-4*": Price(input=9.0, output=9.0)})
    found = table.match("openai", "gpt-4.1-mini")
    assert found is not None and (found.price, found.source) == (mine, "settings")
    assert table.cost("openai", "gpt-4.1-mini", Usage(input=M)) == pytest.approx(1.0)
    rows = list(table.rows())
    assert [r.pattern for r in rows[:2]] == ["gpt-4.1*", "gpt-4*"]
    assert [r.source for r in rows[:2]] == ["settings", "settings"]
    # a pattern the user overrides is tried once, as theirs
    assert [r.pattern for r in rows].count("gpt-4.1*") == 1
    assert len(rows) == len(DEFAULT_PRICES) + 1


def test_an_unknown_model_has_no_price_not_a_zero() -> None:
    table = PriceTable()
    assert table.match("acme", "rocket-1") is None
    assert table.cost("acme", "rocket-1", Usage(input=10, output=10)) is None


@pytest.mark.parametrize(
    ("dollars", "text"),
    [
        (None, "no price"),
        (0, "$0"),
        (0.0, "$0"),
        (0.00123, "$0.0012"),
        (0.0099, "$0.0099"),
        (0.01, "$0.010"),
        (0.123, "$0.123"),
        (1.0, "$1.00"),
        (12.5, "$12.50"),
    ],
)
def test_format_cost(dollars: float | None, text: str) -> None:
    assert format_cost(dollars) == text


def test_prices_in_settings_toml_reach_the_services(data_dir: DataDir) -> None:
    data_dir.ensure()
    data_dir.settings_file.write_text(
        '[prices."rocket-*"]\ninput = 2.0\noutput = 6.0\ncached = 0.5\n'
    )
    assert load_settings(data_dir).prices == {"rocket-*": Price(input=2.0, output=6.0, cached=0.5)}
    services = composition.build(data_dir, environ={}, reconcile=False)
    try:
        cost = services.prices.cost("acme", "rocket-1", Usage(input=M, cached=M, output=M))
        assert cost == pytest.approx(0.5 + 6.0)
    finally:
        services.close()


def test_a_bad_price_in_settings_says_which_file(data_dir: DataDir) -> None:
    data_dir.ensure()
    data_dir.settings_file.write_text('[prices."x"]\ninput = -1.0\noutput = 1.0\n')
    with pytest.raises(CrosstalkError, match=r"settings\.toml.*cannot be negative"):
        load_settings(data_dir)
