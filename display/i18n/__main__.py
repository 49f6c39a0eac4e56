"""``python -m display.i18n``: bring the translation templates and catalogues up to date with the
English texts (see ``display.i18n.catalogs``); prints the files it changed."""

from __future__ import annotations

import sys

from display.i18n import LANGUAGES
from display.i18n.catalogs import LOCALE, update


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args:
        print("usage: python -m display.i18n", file=sys.stderr)
        return 2
    for path in update([language for language in LANGUAGES if language != "en"]):
        print(path.relative_to(LOCALE.parents[2]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
