"""The `josefk` command: `josefk broker ...` and the Kafka-style tools."""

from __future__ import annotations

import sys

from josefk.cli import broker

TOOLS = {
    "broker": broker.main,
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: josefk <tool> [options]\n\ntools:\n  " + "\n  ".join(sorted(TOOLS)))
        return 0 if argv else 2
    tool = TOOLS.get(argv[0])
    if tool is None:
        print(f"josefk: unknown tool {argv[0]!r}; known tools: {', '.join(sorted(TOOLS))}", file=sys.stderr)
        return 2
    return tool(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
