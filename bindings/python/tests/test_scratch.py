"""Your own C++ programs: scratch/ programs built against the module like
ns-3's, `./testbed run-program`, and the installed CMake package (find_package(testbed)) that
builds a program out of the tree.

The expectation is RFC 4541's: an IGMP-snooping switch forwards a registered group only to the
member's port and the router port, so host B (no member) sees none of the group's frames, while
a switch that does not snoop floods them to every port; host A, the member, gets every datagram.
"""

import os
import re
import shutil
import subprocess
import textwrap

import pytest

from mcast_common import BUILD, REPO

EXAMPLE = BUILD / "scratch" / "snooping-example"
COUNT = 7


def _counts(stdout):
    m = re.search(r"hostA_received=(\d+) hostB_group_frames=(\d+)", stdout)
    assert m, stdout
    return int(m.group(1)), int(m.group(2))


@pytest.fixture(scope="module")
def example():
    if not EXAMPLE.exists():
        pytest.skip(f"{EXAMPLE} not built (run ./testbed build)")
    return EXAMPLE


def test_scratch_example_snoops(example):
    r = subprocess.run([str(example), f"--count={COUNT}"], capture_output=True, text=True,
                       timeout=120, check=True)
    assert _counts(r.stdout) == (COUNT, 0)
    r = subprocess.run([str(example), f"--count={COUNT}", "--snooping=false"],
                       capture_output=True, text=True, timeout=120, check=True)
    assert _counts(r.stdout) == (COUNT, COUNT)


def test_run_program_runs_a_scratch_program_and_refuses_an_unknown_one(example):
    env = dict(os.environ, TESTBED_BUILD_DIR=str(BUILD))
    r = subprocess.run([str(REPO / "testbed"), "run-program", "snooping-example", "--count=3"],
                       capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stderr
    assert _counts(r.stdout) == (3, 0)
    r = subprocess.run([str(REPO / "testbed"), "run-program", "no-such-program"],
                       capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 2
    assert "no program 'no-such-program'" in r.stderr and "snooping-example" in r.stderr


def test_installed_package_builds_a_program_out_of_tree(example, tmp_path):
    """`cmake --install` the build, then a project of its own: find_package(testbed), one
    target_link_libraries line, the scratch example's source; it builds and gives the same
    forwarding as the in-tree program."""
    if shutil.which("cmake") is None:
        pytest.skip("cmake not installed")
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", str(BUILD), "--prefix", str(prefix)], check=True,
                   capture_output=True, text=True, timeout=300)
    assert (prefix / "include" / "ns3" / "testbed-module.h").exists()
    assert list(prefix.glob("lib*/cmake/testbed/testbedConfig.cmake"))
    proj = tmp_path / "mine"
    proj.mkdir()
    shutil.copy(REPO / "scratch" / "snooping-example.cc", proj / "main.cc")
    (proj / "CMakeLists.txt").write_text(textwrap.dedent("""\
        cmake_minimum_required(VERSION 3.16)
        project(mine LANGUAGES CXX)
        find_package(testbed REQUIRED)
        add_executable(mine main.cc)
        target_link_libraries(mine PRIVATE testbed::testbed)
        """))
    env = dict(os.environ)
    for v in ("CMAKE_CXX_COMPILER_LAUNCHER",):
        env.pop(v, None)  # a plain user's configuration
    r = subprocess.run(["cmake", "-S", str(proj), "-B", str(proj / "build"),
                        f"-DCMAKE_PREFIX_PATH={prefix}"], capture_output=True, text=True,
                       timeout=300, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run(["cmake", "--build", str(proj / "build"), "-j", "2"], capture_output=True,
                       text=True, timeout=900, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([str(proj / "build" / "mine"), f"--count={COUNT}"], capture_output=True,
                       text=True, timeout=120, check=True)
    assert _counts(r.stdout) == (COUNT, 0)
