"""doc/campaigns.rst's cluster recipes, as the page writes them.

The by-hand recipe is run by bash as documented (its ports moved to free ones, so that two runs
on one machine do not meet; the experiment a cheap one when the page's is not built): every
process it starts listens on 127.0.0.1 only (read from the kernel's socket table through
psutil, as ``ss -ltnp`` shows it), the campaign's console names the external scheduler, and the
recipe's last line leaves no process of it running. The embedded cluster binds to 127.0.0.1 as
well. The Slurm snippet uses no name it does not import or define."""

import ast
import builtins
import ipaddress
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import testbed.cluster

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "doc" / "campaigns.rst"
BUILD = Path(os.environ.get("TESTBED_BUILD_DIR", ROOT / "build"))


def _literal_block_after(text: str, marker: str) -> str:
    """The reST literal block (an indented block after a line ending in '::') that follows the
    first line containing marker."""
    lines = text[text.index(marker):].splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.rstrip().endswith("::")) + 1
    block = []
    for ln in lines[start:]:
        if ln.strip() and not ln.startswith("   "):
            break
        block.append(ln[3:])
    return "\n".join(block).strip("\n") + "\n"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening(pids: set[int]) -> list[tuple[int, str, int]]:
    """(pid, address, port) of every listening TCP socket of the processes pids."""
    out = []
    for c in psutil.net_connections(kind="tcp"):
        if c.status == psutil.CONN_LISTEN and c.pid in pids:
            out.append((c.pid, c.laddr.ip, c.laddr.port))
    return out


def _tree(pid: int) -> set[int]:
    try:
        p = psutil.Process(pid)
        return {pid} | {c.pid for c in p.children(recursive=True)}
    except psutil.NoSuchProcess:
        return set()


def test_recipe_listens_on_loopback_only_and_names_the_scheduler(tmp_path):
    recipe = _literal_block_after(DOC.read_text(), "Two workers by hand")
    assert "kill $pids" in recipe.splitlines()[-1], "the recipe says how to stop what it started"
    sched, dash = _free_port(), _free_port()
    script = recipe.replace("8786", str(sched)).replace("8787", str(dash))
    script = script.replace(".venv/bin/", f"{ROOT}/.venv/bin/").replace("$PWD/", f"{ROOT}/")
    run_line = next(ln for ln in script.splitlines() if ln.startswith("./testbed run"))
    exp = run_line.split()[2]
    program = "jaxa-benchmark" if exp.startswith("jaxa-") else exp
    if not (BUILD / "examples" / program).exists():
        if not (BUILD / "examples" / "gine-timer").exists():
            pytest.skip("programs not built")
        exp = "gine-timer"
    # The campaign's own output beside the test, not in the checkout; the page's other words
    # as they are.
    script = script.replace(run_line, run_line.replace("./testbed", f"{ROOT}/testbed")
                            .replace(run_line.split()[2], exp) + f" --out {tmp_path}/results")
    # While the campaign runs, the processes the recipe started are sampled (the campaign
    # starts once a worker has joined, so all of them are up by then).
    proc = subprocess.Popen(["bash", "-c", script], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    seen: dict[tuple[int, str, int], str] = {}
    pids_seen: set[int] = set()
    try:
        deadline = time.monotonic() + 300
        while proc.poll() is None and time.monotonic() < deadline:
            tree = _tree(proc.pid)
            pids_seen |= tree
            for key in _listening(tree):
                try:
                    seen[key] = " ".join(psutil.Process(key[0]).cmdline()[:4])
                except psutil.NoSuchProcess:
                    seen[key] = "?"
            time.sleep(0.3)
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 9)
    assert proc.returncode == 0, out[-3000:]
    # The scheduler, its dashboard, two workers and their nannies, each worker's HTTP server.
    ports = {port for _, _, port in seen}
    assert sched in ports and dash in ports, seen
    assert len(seen) >= 6, seen
    for (pid, addr, port), cmd in seen.items():
        assert ipaddress.ip_address(addr).is_loopback, f"{cmd} (pid {pid}) listens on {addr}:{port}"
    # The campaign starts once one worker has joined: the second may join after that line.
    assert re.search(rf"^scheduler: tcp://127\.0\.0\.1:{sched} \(external, "
                     r"(1 worker|2 workers) connected\)$", out, re.M), out
    # `kill $pids` stopped the scheduler, the workers and their worker processes.
    time.sleep(1.0)
    left = [p for p in pids_seen if psutil.pid_exists(p)
            and psutil.Process(p).status() != psutil.STATUS_ZOMBIE]
    assert not left, [psutil.Process(p).cmdline() for p in left]


def test_embedded_cluster_listens_on_loopback_only():
    """The campaign's own LocalCluster (threads here, as from a script; processes from the
    command line, which the recipe test's workers stand for) and the console line naming it."""
    cluster = testbed.cluster.Cluster(2, None)
    try:
        line = cluster.describe()
        listening = _listening({os.getpid()})
    finally:
        cluster.close()
    assert line.startswith("scheduler: embedded LocalCluster at ") and "2 worker threads" in line
    assert listening, "the scheduler's and the workers' HTTP servers"
    for _, addr, port in listening:
        assert ipaddress.ip_address(addr).is_loopback, f"listens on {addr}:{port}"


def test_embedded_worker_processes_listen_on_loopback_only(tmp_path):
    """From the command line the workers are processes: the scheduler, every worker and every
    HTTP server on 127.0.0.1."""
    code = ("import os, sys, psutil\n"
            f"sys.path.insert(0, {str(ROOT / 'bindings' / 'python')!r})\n"
            "import testbed.cluster\n"
            "testbed.cluster._worker_processes_are_safe = lambda: True\n"
            "if __name__ == '__main__':\n"
            "    c = testbed.cluster.Cluster(2, None)\n"
            "    print(c.describe())\n"
            "    me = psutil.Process()\n"
            "    pids = {me.pid} | {p.pid for p in me.children(recursive=True)}\n"
            "    for k in psutil.net_connections(kind='tcp'):\n"
            "        if k.status == psutil.CONN_LISTEN and k.pid in pids:\n"
            "            print('LISTEN', k.pid, k.laddr.ip, k.laddr.port)\n"
            "    c.close()\n")
    script = tmp_path / "embedded.py"
    script.write_text(code)
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    assert re.search(r"^scheduler: embedded LocalCluster at tcp://127\.0\.0\.1:\d+ "
                     r"\(2 worker processes, listening on 127\.0\.0\.1 only\)$", r.stdout, re.M)
    listening = [ln.split() for ln in r.stdout.splitlines() if ln.startswith("LISTEN")]
    assert len({pid for _, pid, _, _ in listening}) == 3, r.stdout  # scheduler and two workers
    for _, pid, addr, port in listening:
        assert ipaddress.ip_address(addr).is_loopback, f"pid {pid} listens on {addr}:{port}"


def test_slurm_snippet_defines_every_name_it_uses():
    code = _literal_block_after(DOC.read_text(), "A Slurm cluster through")
    tree = ast.parse(code)
    defined = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            defined |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    assert used <= defined, f"used without an import: {sorted(used - defined)}"
