"""``crosstalk models`` and ``crosstalk key``: the models you can use, and API keys in the OS
keyring."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from app.cli.parser import fail

if TYPE_CHECKING:
    from app.composition import Services


def cmd_models(services: Services, args: argparse.Namespace) -> int:
    """Configured providers and models, where each provider's key comes from, and what each
    OpenAI-compatible server listed when last asked (``--refresh`` asks them first)."""
    from app.model_catalog import ModelCatalog, describe, local_time, provider_line

    catalog = ModelCatalog(services)
    statuses = catalog.key_statuses()
    failed = False
    if args.refresh:
        for provider in catalog.snapshot().providers:
            if provider.lists_server:
                listed = catalog.refresh(provider.name)
                if listed.error:
                    failed = True
                    print(f"crosstalk: {provider.name}: {listed.error}", file=sys.stderr)
    for provider in catalog.snapshot(statuses).providers:
        print(provider_line(provider))
        for spec in provider.specs:
            default = "  (default)" if spec == services.settings.default_model else ""
            served = "" if spec in provider.configured else "  (served)"
            print(f"    {spec}{default}{served}  {describe(catalog.facts(spec))}")
        server = provider.server
        if provider.lists_server:
            if server is None or server.fetched_at is None:
                print("    (never asked what the server serves: crosstalk models --refresh)")
            else:
                when = local_time(server.fetched_at)
                print(f"    ({len(server.models)} served, as the server said at {when})")
            if server is not None and server.error and server.error_at and not args.refresh:
                when = local_time(server.error_at)
                print(f"    (the last refresh, at {when}, failed: {server.error})")
    return 1 if failed else 0


def cmd_key(services: Services, args: argparse.Namespace) -> int:
    """Keep a provider's API key in the OS keyring (never in a file)."""
    from app.keys import KeyringUnavailable

    name = args.provider
    config = services.settings.all_providers().get(name)
    if config is None:
        known = ", ".join(services.settings.all_providers())
        return fail(f"no provider {name!r}; the providers are: {known}")
    if args.action == "delete":
        removed = services.keys.forget(name)
        print(f"{'removed' if removed else 'there was no'} key for {name} in the OS keyring")
        return 0
    if not services.keys.keyring_usable():  # said before the key is asked for, not after
        return fail(no_keyring(name, config.kind, services.keys.problem))
    if sys.stdin.isatty():
        import getpass

        value = getpass.getpass(f"API key for {name} (not shown): ")
    else:
        value = sys.stdin.readline()
    try:
        services.keys.store(name, value)
    except KeyringUnavailable:
        return fail(no_keyring(name, config.kind, services.keys.problem))
    print(f"stored the key for {name} in the OS keyring")
    if variable := services.keys.shadowing(name, config.kind):
        print(
            f"{variable} is set here, and the command line uses it before the keyring's key "
            "(the window uses the keyring's): unset it to use this one",
            file=sys.stderr,
        )
    return 0


def no_keyring(name: str, kind: str, why: str | None) -> str:
    """Where a key can live when the OS keyring cannot keep it: the same two ways the
    window's Settings offers (it can keep a key in memory; a command ends too soon for that)."""
    from app.keys import env_names

    because = f" ({why})" if why else ""
    return (
        f"there is no usable OS keyring here{because}, so the key for {name} was not stored: "
        f"set {' or '.join(env_names(name, kind))} in the environment, or paste the key in the "
        "window's Settings > Providers, which can keep it for this session only"
    )


# --- changing ------------------------------------------------------------------------------
