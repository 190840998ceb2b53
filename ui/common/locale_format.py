"""Numbers, money, sizes and times as the user's locale writes them: the one place for them in ui/.

Every function formats with the default QLocale, which ui/common/i18n.py sets at start to the chosen
language. A default of "C" (CI, containers) formats as en_US, so numbers keep their group
separators. Words ("Yesterday") go through the translator, under the context "LocaleFormat".
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from PySide6.QtCore import QDate, QLocale, QTime

from ui.common.i18n import Context

Moment = datetime | str | float | int | None


class LocaleFormat(Context):
    """The translation context of the words here ("Yesterday")."""


# Japanese and Chinese put no space after a full-width stop or comma, nor before an opening
# full-width bracket; other languages put one between the parts of a line
# full-width stops, commas, colons and closing brackets
_TIGHT_AFTER = frozenset(
    "\u3002\u3001\uff0c\uff0e\uff1a\uff1b\uff01\uff1f\uff09\u300d\u300f\u3011\u3009\u300b"
)
# full-width opening brackets
_TIGHT_BEFORE = frozenset("\uff08\u300c\u300e\u3010\u3008\u300a")


def spaced(*parts: str) -> str:
    """Parts of a line (sentences, a clause and its bracket) joined as the language writes
    them: "Turn 1. Failed: …" with a space, the same in Japanese or Chinese without one after
    their full stop or before their opening bracket."""
    line = ""
    for part in parts:
        if not part:
            continue
        if line and line[-1] not in _TIGHT_AFTER and part[0] not in _TIGHT_BEFORE:
            line += " "
        line += part
    return line


def locale() -> QLocale:
    """The default locale, or en_US when that is "C"/POSIX (which writes 1234567 bare)."""
    current = QLocale()
    if current.language() in (QLocale.Language.C, QLocale.Language.AnyLanguage):
        return QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    return current


def _local(moment: Moment) -> datetime | None:
    """A timestamp (datetime, ISO text, or seconds since the epoch) in local time; None if none."""
    if moment is None or moment == "":
        return None
    if isinstance(moment, str):
        try:
            moment = datetime.fromisoformat(moment)
        except ValueError:
            return None
    elif not isinstance(moment, datetime):
        moment = datetime.fromtimestamp(float(moment), UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone()


def _qtime(moment: datetime) -> QTime:
    return QTime(moment.hour, moment.minute, moment.second)


def _qdate(day: date) -> QDate:
    return QDate(day.year, day.month, day.day)


def clock(moment: Moment, seconds: bool = False) -> str:
    """The time of day: "14:02" (or "2:02 PM", as the locale writes it); "" when no time."""
    local = _local(moment)
    if local is None:
        return ""
    here = locale()
    if not seconds:
        return here.toString(_qtime(local), QLocale.FormatType.ShortFormat)
    # The long format ends with the zone name ("t"); a clock needs only the time.
    pattern = here.timeFormat(QLocale.FormatType.LongFormat).replace("t", "").strip()
    return here.toString(_qtime(local), pattern)


def when(moment: Moment, now: datetime | None = None) -> str:
    """For lists: "14:02" today, "Yesterday 14:02", "Tuesday 14:02" within the week before,
    else the short date, each as the locale writes it."""
    local = _local(moment)
    if local is None:
        return ""
    today = (now.astimezone() if now else datetime.now().astimezone()).date()
    day = local.date()
    time = clock(local)
    if day == today:
        return time
    if day == today - timedelta(days=1):
        return LocaleFormat.tr("Yesterday {time}").format(time=time)
    if today - timedelta(days=6) <= day < today:
        weekday = locale().dayName(day.isoweekday(), QLocale.FormatType.LongFormat)
        return LocaleFormat.tr("{weekday} {time}").format(weekday=weekday, time=time)
    return locale().toString(_qdate(day), QLocale.FormatType.ShortFormat)


def count(n: int | None) -> str:
    """A whole number with the locale's group separators: 1,234,567 / 1.234.567; "" for None."""
    return "" if n is None else locale().toString(int(n))


def number(x: float, decimals: int = 1) -> str:
    """A decimal number with the locale's separators and a fixed number of decimals."""
    return locale().toString(float(x), "f", decimals)


def money(usd: float | None) -> str:
    """A cost in dollars: "$0.0123" in English, with the locale's separators; "no price" if None.

    Enough digits to tell small calls apart, as app.pricing.format_cost chooses them.
    """
    if usd is None:
        return LocaleFormat.tr("no price")
    if usd == 0:
        digits = 0
    elif abs(usd) < 0.01:
        digits = 4
    elif abs(usd) < 1:
        digits = 3
    else:
        digits = 2
    return locale().toCurrencyString(float(usd), "$", digits)


def percent(x: float, decimals: int = 0) -> str:
    """A fraction as a percentage: 0.25 → "25%" (the locale's digits and percent sign)."""
    here = locale()
    return here.toString(float(x) * 100, "f", decimals) + here.percent()


def size(n_bytes: int) -> str:
    """A data size: "1.5 KiB", with the locale's decimal separator."""
    return locale().formattedDataSize(int(n_bytes))
