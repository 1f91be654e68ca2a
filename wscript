# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
#
# testbed cannot be built by waf. ns-3 dropped waf in ns-3.36 (CMake since then) and its cppyy
# Python bindings, which this module's Python package uses, start at ns-3.37. A waf-era ns-3
# tree (<= 3.35) therefore cannot build it: stop with a clear message instead of a cryptic one.

def _stop(*args, **kwargs):
    from waflib.Errors import WafError

    raise WafError(
        "The 'testbed' module needs ns-3 >= 3.37 (CMake build system, cppyy bindings); this "
        "tree is built with waf (ns-3 <= 3.35).\n"
        "Use instead:\n"
        "  * an ns-3 >= 3.37 source tree: copy or link this directory to contrib/testbed and run\n"
        "    ./ns3 configure --enable-examples --enable-tests && ./ns3 build, or\n"
        "  * the standalone build on the PyPI wheel: ./testbed build (see README.md).")


options = _stop
configure = _stop
build = _stop
