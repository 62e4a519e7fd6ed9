"""`josefk consumer-groups` (placeholder while being written)."""


def main(argv: list[str]) -> int:
    return 1
