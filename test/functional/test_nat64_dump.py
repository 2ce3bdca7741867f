"""Dumps of the NAT64 tables resume by position between their parts, so
an entry linked or unlinked meanwhile may be missed or listed twice: the
kernel flags such a dump (NLM_F_DUMP_INTR, genl_dump_check_consistent)
and the CLI shows it with a warning. A dump of a table that did not
change is not flagged."""

import socket

import ternlib
from genl import ATTR, nla
from ternlib import cli
from ternlib.nat64 import _nat64_module, nat  # noqa: F401
from test_nat64_cli import bib_nest

N = 1000


def bib_add(g, i):
    return g.tern("TERN_CMD_BIB_ADD", nla(ATTR["TERN_A_INSTANCE"], b"n\0"),
                  bib_nest(socket.IPPROTO_UDP, "2001:db8:6::1:%x" % i, 5000,
                           "198.51.100.17", 10000 + i))


def dump(g, between=None):
    return g.tern("TERN_CMD_BIB_GET", nla(ATTR["TERN_A_INSTANCE"], b"n\0"),
                  dump=True, between=between)


def test_bib_dump_flagged_when_table_changes_between_parts(nat):
    g = ternlib.genl_in(nat.xl)
    try:
        for i in range(N):
            assert bib_add(g, i)[:2] == (0, None)
        nat.defer(lambda: cli(nat.xl, "-i", "n", "bib", "remove",
                              "198.51.100.17#%d" % (10000 + N), "--udp"))
        err, _, replies = dump(g)
        assert err == 0 and len(replies) == N and g.parts > 1
        assert not g.intr, "a dump of a quiet table was flagged"
        # Another entry goes in after the first part was read.
        h = ternlib.genl_in(nat.xl)
        try:
            err, _, replies = dump(g, between=lambda: bib_add(h, N))
        finally:
            h.close()
        assert err == 0 and g.parts > 1
        assert g.intr, "a dump of a changed table was not flagged"
    finally:
        for i in range(N):
            cli_del = g.tern("TERN_CMD_BIB_DEL",
                             nla(ATTR["TERN_A_INSTANCE"], b"n\0"),
                             bib_nest(socket.IPPROTO_UDP, None, None,
                                      "198.51.100.17", 10000 + i))
            assert cli_del[0] == 0
        g.close()
