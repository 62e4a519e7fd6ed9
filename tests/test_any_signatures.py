"""The broker's functions take and return typed values: no `Any` in a signature but where
the code says why (issue 31, typed boundaries). A new one fails here until it is typed or
added below with its reason. Read from the source with ast, as test_layers reads imports."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BROKER = ["utils", "protocol", "log", "zk", "clients", "replication", "controller", "coordinator", "server"]

# (file, qualified function name): each keeps Any for the reason above it, which the code says too
ALLOWED = {
    # a LogConfig field's value, of the type its spec's `kind` names, for dataclasses.replace(**changes)
    ("log/config.py", "_Spec.parse"),
    # kazoo is untyped: the multi-op's result is a ZnodeStat or a created path
    ("zk/zk_store.py", "ZooKeeperStore._fenced"),
    # the host store's JSON messages: what json reads, shaped by the operation, whose typed
    # CoordinationStore method (HostStoreClient.create, .get, ...) states what it returns
    *(("zk/host_store.py", name) for name in ("_encode", "_decode", "_receive", "HostStoreServer._answer",
                                              "HostStoreClient._call", "_Call.answer", "_Call.wait")),
}


def _mentions_any(node: ast.AST | None) -> bool:
    if node is None:
        return False
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id == "Any" or isinstance(n, ast.Attribute) and n.attr == "Any":
            return True
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            try:
                if _mentions_any(ast.parse(n.value, mode="eval")):
                    return True
            except SyntaxError:
                continue
    return False


def _signature_has_any(f: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    a = f.args
    params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *(p for p in (a.vararg, a.kwarg) if p is not None)]
    return any(_mentions_any(p.annotation) for p in params) or _mentions_any(f.returns)


def _functions(tree: ast.AST, prefix: str = "") -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    out = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.append((prefix + node.name, node))
            out.extend(_functions(node, f"{prefix}{node.name}."))
        elif isinstance(node, ast.ClassDef):
            out.extend(_functions(node, f"{prefix}{node.name}."))
    return out


def any_signatures() -> set[tuple[str, str]]:
    found = set()
    for package in BROKER:
        for path in sorted((ROOT / package).rglob("*.py")):
            for name, f in _functions(ast.parse(path.read_text(), str(path))):
                if _signature_has_any(f):
                    found.add((str(path.relative_to(ROOT)), name))
    return found


def test_no_any_in_broker_signatures_but_the_explained_ones() -> None:
    assert any_signatures() == ALLOWED


def test_the_check_sees_any_in_a_signature() -> None:
    tree = ast.parse("class C:\n    def f(self, x: 'dict[str, Any]') -> None: ...\n"
                     "def g(y: int) -> typing.Any: ...\ndef h(z: int) -> int: ...")
    assert [name for name, f in _functions(tree) if _signature_has_any(f)] == ["C.f", "g"]
