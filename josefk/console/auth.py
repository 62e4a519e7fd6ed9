"""The console's own users (HTTP Basic against a file of scrypt hashes) and its CSRF tokens.

Actions change the cluster, so the console only offers them to users from `--users-file`. A
browser resends Basic credentials on its own, so every POST also carries a token that only a
page the console rendered for that user can hold (an HMAC of the user under a per-process key).

The users file has one `name:scrypt:N:r:p:SALT:HASH` line per user (salt and hash in base64);
`python -m josefk.console.auth NAME` reads a password on stdin and prints such a line.
"""

from __future__ import annotations

import base64
import binascii
import getpass
import hashlib
import hmac
import os
import sys
from dataclasses import dataclass

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
REALM = "josefk console"


class UsersFileError(Exception):
    """A users file the console cannot use; the message names the file and line."""


@dataclass(frozen=True)
class Hashed:
    n: int
    r: int
    p: int
    salt: bytes
    digest: bytes

    def matches(self, password: str) -> bool:
        found = hashlib.scrypt(password.encode(), salt=self.salt, n=self.n, r=self.r, p=self.p,
                               dklen=len(self.digest), maxmem=2 * 128 * self.n * self.r * self.p)
        return hmac.compare_digest(found, self.digest)


def hash_password(name: str, password: str) -> str:
    """A users-file line for `name`."""
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    b64 = base64.b64encode
    return f"{name}:scrypt:{SCRYPT_N}:{SCRYPT_R}:{SCRYPT_P}:{b64(salt).decode()}:{b64(digest).decode()}"


def load_users(path: str) -> dict[str, Hashed]:
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise UsersFileError(f"cannot read users file {path}: {e.strerror}") from e
    users: dict[str, Hashed] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.strip().split(":")
        try:
            if len(fields) != 7 or fields[1] != "scrypt" or not fields[0]:
                raise ValueError
            users[fields[0]] = Hashed(int(fields[2]), int(fields[3]), int(fields[4]),
                                      base64.b64decode(fields[5], validate=True),
                                      base64.b64decode(fields[6], validate=True))
        except (ValueError, binascii.Error):
            raise UsersFileError(f"{path} line {number}: expected NAME:scrypt:N:r:p:SALT:HASH "
                                 f"(python -m josefk.console.auth NAME writes one)") from None
    if not users:
        raise UsersFileError(f"{path} has no users")
    return users


class Auth:
    """Who a request is (None: nobody the console knows) and the CSRF token that user's forms carry."""

    def __init__(self, users: dict[str, Hashed] | None, secret: bytes | None = None) -> None:
        self.users = users
        self._secret = secret or os.urandom(32)

    @property
    def enabled(self) -> bool:
        return self.users is not None

    def user(self, authorization: str | None) -> str | None:
        if self.users is None or not authorization:
            return None
        scheme, _, encoded = authorization.partition(" ")
        if scheme.lower() != "basic":
            return None
        try:
            name, sep, password = base64.b64decode(encoded.strip(), validate=True).decode().partition(":")
        except (binascii.Error, UnicodeDecodeError):
            return None
        hashed = self.users.get(name)
        return name if sep and hashed is not None and hashed.matches(password) else None

    def csrf_token(self, user: str) -> str:
        return hmac.new(self._secret, user.encode(), hashlib.sha256).hexdigest()

    def csrf_ok(self, user: str, token: str) -> bool:
        return hmac.compare_digest(self.csrf_token(user), token)


def main(argv: list[str]) -> int:
    if len(argv) != 1 or ":" in argv[0] or not argv[0]:
        print("usage: python -m josefk.console.auth NAME  (reads the password on stdin; NAME without ':')",
              file=sys.stderr)
        return 2
    password = getpass.getpass("Password: ") if sys.stdin.isatty() else sys.stdin.readline().rstrip("\n")
    if not password:
        print("josefk console: empty password", file=sys.stderr)
        return 1
    print(hash_password(argv[0], password))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
