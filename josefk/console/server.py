"""`josefk console`: the HTTP server (stdlib ThreadingHTTPServer) and its command line.

Pages are HTML rendered on the server; each has a JSON twin under /api/ with the same data.
With --users-file every request needs a user's HTTP Basic credentials, and the pages offer
actions (POST forms carrying a CSRF token); without it the console is read-only.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, NoReturn
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

import kafka.errors as Errors
from kafka import KafkaConsumer, KafkaProducer

from josefk.cli.tools import common
from josefk.cli.version import add_version
from josefk.console import forms, pages
from josefk.console.actions import KafkaActions, Refused
from josefk.console.auth import REALM, Auth, UsersFileError, load_users
from josefk.console.cluster import DEFAULT_LIMIT, SEARCH_FIELDS, Cluster, KafkaCluster, NotFound, Search
from josefk.console.forms import Session
from josefk.console.metrics import MetricsScraper
from josefk.console.posts import Posted, form_page, post_action

log = logging.getLogger(__name__)
STATIC_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}


class BadRequest(Exception):
    """A query parameter the console cannot use (HTTP 400)."""


class Console:
    """Routes a request path to the cluster read and the page or JSON that shows it."""

    def __init__(self, cluster: Cluster, scraper: MetricsScraper, bootstrap: str, chart_interval_ms: int,
                 actions: KafkaActions | None = None, auth: Auth | None = None) -> None:
        self.cluster = cluster
        self.scraper = scraper
        self.bootstrap = bootstrap
        self.chart_interval_ms = chart_interval_ms
        self.actions = actions
        self.auth = auth or Auth(None)

    def session(self, user: str | None, **said: Any) -> Session | None:
        """The forms' context for a logged-in user; None (no forms) when the console is read-only."""
        if user is None or self.actions is None:
            return None
        return Session(user, self.auth.csrf_token(user), **said)

    def handle(self, target: str, session: Session | None = None, status: int = 200) -> tuple[int, str, bytes]:
        """(status, content type, body) for a GET of `target` (path and query)."""
        url = urlsplit(target)
        parts = [unquote(p) for p in url.path.split("/") if p]
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        api = bool(parts) and parts[0] == "api"
        if session is not None and query.get("done") and session.notice is None:
            session = Session(session.user, session.csrf, notice=query["done"])
        try:
            if parts[:1] == ["static"] and len(parts) == 2:
                return self._static(parts[1])
            data, render = self._route(parts[1:] if api else parts, query, api, session)
            if api:
                return 200, "application/json", json.dumps(data, indent=1).encode()
            return status, "text/html; charset=utf-8", render(data).encode()
        except NotFound as e:
            return self._error(api, 404, str(e))
        except BadRequest as e:
            return self._error(api, 400, str(e))
        except Errors.KafkaError as e:
            text = common.error_text(e)
            return self._error(api, 502, text if text.startswith(type(e).__name__) else f"{type(e).__name__}: {text}")
        except Exception as e:  # noqa: BLE001 - one request fails, the console keeps serving the others
            log.exception("GET %s failed", target)
            return self._error(api, 500, f"{type(e).__name__}: {e}")

    def post(self, target: str, user: str | None, form: dict[str, str]) -> tuple[int, str, bytes, str | None]:
        """(status, content type, body, redirect) for a POSTed action form: 303 to the page that
        shows the result, or the form's page again with the cluster's refusal."""
        if self.actions is None or user is None:
            return (*self._error(False, 403, "This console is read-only: start it with --users-file to act "
                                             "on the cluster"), None)
        if not self.auth.csrf_ok(user, form.get("csrf", "")):
            return (*self._error(False, 403, "The form's CSRF token is missing or stale: reload the page"), None)
        parts = [unquote(p) for p in urlsplit(target).path.split("/") if p]
        try:
            done: Posted = post_action(self.actions, parts, form)
        except NotFound as e:
            return (*self._error(False, 404, str(e)), None)
        except (BadRequest, Refused, Errors.KafkaError, ValueError) as e:
            message = str(e) if not isinstance(e, Errors.KafkaError) else common.error_text(e)
            if isinstance(e, Errors.KafkaError) and not message.startswith(type(e).__name__):
                message = f"{type(e).__name__}: {message}"
            session = Session(user, self.auth.csrf_token(user), error=message,
                              values={k: v for k, v in form.items() if k != "csrf"})
            return (*self.handle(form_page(parts), session, status=409 if isinstance(e, Refused) else 400), None)
        location = done.page + ("&" if "?" in done.page else "?") + urlencode({"done": done.notice})
        return 303, "text/plain; charset=utf-8", done.notice.encode(), location

    def _route(self, parts: list[str], query: dict[str, str], api: bool, session: Session | None = None
               ) -> tuple[Any, Callable[[Any], str]]:
        b = self.bootstrap
        s = session
        banner = forms.banner(s)
        match parts:
            case [] if not api:
                return self.cluster.overview(), lambda d: pages.overview(d, b)
            case ["cluster"] if api:
                return self.cluster.overview(), str
            case ["topics"]:
                return self.cluster.topics(), lambda d: pages.topics(
                    d, b, forms.create_topic(s) if s else pages.EMPTY, banner)
            case ["partitions"]:
                return self.cluster.at_risk(), lambda d: pages.at_risk(d, b)
            case ["topics", name]:
                return self.cluster.topic(name), lambda d: pages.topic(
                    d, b, forms.topic_actions(s, name) if s else pages.EMPTY, banner)
            case ["topics", name, "messages"]:
                fmt = query.get("format", "text")
                if fmt not in pages.FORMATS:
                    raise BadRequest(f"format must be one of {', '.join(pages.FORMATS)}, not {fmt!r}")
                data = self.cluster.messages(name, _int(query, "partition", 0), _int(query, "offset", None),
                                             _int(query, "limit", DEFAULT_LIMIT))
                return data, lambda d: pages.messages(
                    d, d["partitions"], fmt, b, forms.produce(s, name, d["partitions"]) if s else pages.EMPTY, banner)
            case ["topics", name, "search"]:
                field = query.get("field") or "any"
                if field not in SEARCH_FIELDS:
                    raise BadRequest(f"field must be one of {', '.join(SEARCH_FIELDS)}, not {field!r}")
                search = Search(query.get("q", ""), field, _int(query, "partition", None), _time(query, "from"),
                                _time(query, "to"), _int(query, "limit", DEFAULT_LIMIT))
                return self.cluster.search(name, search), lambda d: pages.search(d, query, b)
            case ["acls"]:
                return self.cluster.acls(), lambda d: pages.acls(
                    d, b, [forms.delete_acl(s, i, a) for i, a in enumerate(d["acls"])] if s else None,
                    forms.create_acl(s) if s else pages.EMPTY, banner)
            case ["groups"]:
                return self.cluster.groups(), lambda d: pages.groups(d, b)
            case ["groups", group_id]:
                return self.cluster.group(group_id), lambda d: pages.group(
                    d, b, forms.reset_offsets(s, group_id, sorted({o["topic"] for o in d["offsets"]}))
                    if s else pages.EMPTY, banner)
            case ["charts"] if not api:
                return None, lambda _: pages.charts(self.scraper.urls, self.chart_interval_ms, b)
            case ["metrics"] if api:
                return self.scraper.scrape(), str
        raise NotFound("No such page")

    def _static(self, name: str) -> tuple[int, str, bytes]:
        """Only the files shipped in static/ by name: a name is never a path."""
        folder = resources.files("josefk.console").joinpath("static")
        kind = STATIC_TYPES.get(name[name.rfind("."):]) if "." in name else None
        if kind is None or name not in {f.name for f in folder.iterdir()}:
            raise NotFound("No such file")
        return 200, kind, folder.joinpath(name).read_bytes()

    def _error(self, api: bool, status: int, message: str) -> tuple[int, str, bytes]:
        if api:
            return status, "application/json", json.dumps({"error": message}).encode()
        return status, "text/html; charset=utf-8", pages.error(status, message, self.bootstrap).encode()


def _int(query: dict[str, str], name: str, default: int | None) -> Any:
    raw = query.get(name, "")
    if raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise BadRequest(f"{name} must be a whole number, not {raw!r}") from None


MAX_FORM_BYTES = 1 << 20


def _time(query: dict[str, str], name: str) -> int | None:
    """A time as epoch milliseconds or an ISO date-time (UTC unless it names a zone)."""
    raw = query.get(name, "").strip()
    if not raw:
        return None
    if raw.lstrip("-").isdigit():
        return int(raw)
    try:
        when = datetime.fromisoformat(raw)
    except ValueError:
        raise BadRequest(f"{name} must be a date-time (YYYY-MM-DDTHH:MM[:SS], UTC) or epoch ms, not {raw!r}") from None
    return int((when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp() * 1000)


def handler_for(console: Console) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "josefk-console"

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            user = self._user()
            if console.auth.enabled and user is None:
                return self._unauthorized()
            try:
                status, kind, body = console.handle(self.path, console.session(user))
            except (BrokenPipeError, ConnectionResetError):
                return
            self._send(status, kind, body)

        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            user = self._user()
            if console.auth.enabled and user is None:
                return self._unauthorized()
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 <= length <= MAX_FORM_BYTES or not (self.headers.get("Content-Type") or "").startswith(
                    "application/x-www-form-urlencoded"):
                return self._send(*console._error(False, 400, "Expected a form (application/x-www-form-urlencoded) "
                                                             f"of at most {MAX_FORM_BYTES} bytes"))
            form = {k: v[-1] for k, v in parse_qs(self.rfile.read(length).decode("utf-8", "replace"),
                                                  keep_blank_values=True).items()}
            status, kind, body, location = console.post(self.path, user, form)
            if user is not None:
                log.info("%s POST %s: %s", user, self.path, status)
            self._send(status, kind, body, location)

        def _user(self) -> str | None:
            return console.auth.user(self.headers.get("Authorization"))

        def _unauthorized(self) -> None:
            body = pages.error(401, "Log in with a user from the console's --users-file.", console.bootstrap).encode()
            self.send_response(401)
            self.send_header("WWW-Authenticate", f'Basic realm="{REALM}", charset="UTF-8"')
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _send(self, status: int, kind: str, body: bytes, location: str | None = None) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                if location is not None:
                    self.send_header("Location", location)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                return

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's signature
            """Quiet: a polled chart page would otherwise write a line every interval."""

    return Handler


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """One line naming what is wrong, and exit status 2 (argparse's own prints the usage too)."""
        self.exit(2, f"josefk console: {message}\n")


def listen_address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def metrics_urls(text: str) -> list[str]:
    urls = []
    for url in filter(None, (u.strip() for u in text.split(","))):
        split = urlsplit(url)
        if split.scheme not in ("http", "https") or not split.netloc:
            raise argparse.ArgumentTypeError(f"expected http://HOST:PORT/metrics, got {url!r}")
        urls.append(url if split.path not in ("", "/") else url.rstrip("/") + "/metrics")
    return urls


def build_parser() -> argparse.ArgumentParser:
    p = add_version(Parser(prog="josefk console",
                           description="A web console for a Kafka cluster (josefk or Apache Kafka)."))
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT", help="the server(s) to connect to")
    p.add_argument("--listen", type=listen_address, default=("127.0.0.1", 8080), metavar="HOST:PORT",
                   help="where the console serves its pages (default 127.0.0.1:8080)")
    p.add_argument("--metrics-url", type=metrics_urls, action="append", default=[], metavar="URL[,URL...]",
                   help="the brokers' Prometheus /metrics (metrics.http.listener), for the live charts")
    p.add_argument("--chart-interval-ms", type=int, default=2000, metavar="MS",
                   help="how often the charts page polls the metrics (default 2000)")
    p.add_argument("--timeout", type=int, default=common.DEFAULT_TIMEOUT_MS, metavar="MS",
                   help="ms to wait for the cluster (default 10000)")
    p.add_argument("--command-config", metavar="FILE",
                   help="client properties for the console's connections to the cluster (security.protocol, "
                        "sasl.mechanism, sasl.jaas.config, ssl.*), as Kafka's tools take them")
    p.add_argument("--users-file", metavar="FILE",
                   help="the console's users (NAME:scrypt:... lines, python -m josefk.console.auth NAME writes "
                        "one): every page then asks for a user, and the pages offer actions on the cluster")
    return p


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.chart_interval_ms < 100:
        build_parser().error(f"--chart-interval-ms must be at least 100, not {args.chart_interval_ms}")
    common.quiet_client_logs()
    try:
        users = load_users(args.users_file) if args.users_file else None
        props = common.load_properties(args.command_config)
        consumer_config = common.client_config(props, KafkaConsumer.DEFAULT_CONFIG)
        producer_config = common.client_config(props, KafkaProducer.DEFAULT_CONFIG)
        admin = common.admin_client(args.bootstrap_server, props, timeout_ms=args.timeout)
    except (UsersFileError, common.ToolError) as e:
        print(f"josefk console: {e}", file=sys.stderr)
        return 1
    bootstrap = args.bootstrap_server.split(",")
    cluster = KafkaCluster(admin, lambda: KafkaConsumer(**{
        **consumer_config, "bootstrap_servers": bootstrap, "client_id": "josefk-console", "group_id": None,
        "enable_auto_commit": False, "request_timeout_ms": args.timeout + 5000}))
    actions = None if users is None else KafkaActions(admin, lambda: KafkaProducer(**{
        **producer_config, "bootstrap_servers": bootstrap, "client_id": "josefk-console", "acks": "all",
        "request_timeout_ms": args.timeout}), cluster.lock)
    scraper = MetricsScraper([u for group in args.metrics_url for u in group])
    console = Console(cluster, scraper, args.bootstrap_server, args.chart_interval_ms, actions, Auth(users))
    try:
        server = ThreadingHTTPServer(args.listen, handler_for(console))
    except OSError as e:
        if actions is not None:
            actions.close()
        cluster.close()
        print(f"josefk console: cannot listen on {args.listen[0]}:{args.listen[1]}: {e.strerror}", file=sys.stderr)
        return 1
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"josefk console for {args.bootstrap_server} on http://{args.listen[0]}:{server.server_port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        scraper.close()
        if actions is not None:
            actions.close()
        cluster.close()
    return 0
