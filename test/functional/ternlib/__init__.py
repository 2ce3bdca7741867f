"""Helpers for Tern's functional tests.

Network namespaces, raw frames in and out of them, the tern CLI, counters
and checksums. The tests run as root under Debian's /usr/bin/python3 (with
python3-scapy), inside a VM whose kernel has tern.ko loaded.

Tests use the package as one module (`import ternlib`, `from ternlib
import X`): every name is re-exported here. The modules, by concern, each
importing only modules listed above it:

  names     paths, timeouts, the API header tables (counter names, global
            keys), the addresses of the standard topology, RFC 6052
  nsenter   entering and making namespaces (setns, unshare), one netlink
            socket per namespace
  commands  run(), the tern CLI in a namespace and its JSON, the same
            reads over netlink, refusals (assert_error)
  frames    Sender, Capture, TcpdumpCapture, none_on, frame predicates,
            a tun device with offload metadata (vnet_tun, vnet, inject)
  netns     Netns, and a namespace's state: checksum offload, MTU, link
            statistics, /proc/net/snmp and snmp6
  packets   checksums, packets built with scapy or byte by byte, the
            translation RFC 7915 expects of a quoted packet
  checks    received frames read from the bytes on the wire, asserts of
            their fields and checksums, fragments
  counters  Counters: exact counter deltas of an instance
  topology  Topology (h6 -- xl -- h4), xlat64, xlat46, both_translated,
            nothing_out
  traffic   Thread, tcp_exchange
  pktgen    Pktgen, PktgenRig: pktgen into a translator namespace made
            and unmade under traffic (lifetime tests)
  nat64     the NAT64 instance of the standard topology: its fixtures
            (_nat64_module, nat), CLIENT, POOL4, flows (out64, out46)
  xtables   ipt, ipt_raw: iptables with the TERN extension of the build
            tree

pktgen, nat64 and xtables are not re-exported (nat64's udp6/udp4 are not packets'):
tests import them by module (`from ternlib.nat64 import nat`).
"""

from .names import (  # noqa: F401
    GLOBALS_HEADER, GLOBAL_KINDS, H4, H4_6, H4_MAC, H6, H6_4, H6_LINK, H6_MAC,
    NAMES_HEADER, POOL6, QUIET, REPO, SINK4, SINK4_6, SINK6, SINK6_4,
    STAT_ENUMS, STAT_NAMES, TERN, TIMEOUT, XL4, XL4_MAC, XL6, XL6_MAC, embed,
    extract)
from .nsenter import (  # noqa: F401
    CLONE_NEWNET, MNT_DETACH, MS_BIND, NETNS_RUN_DIR, _genl_socks, genl_in,
    in_netns, unique_name)
from .commands import (  # noqa: F401
    Result, assert_error, cli, cli_json, cli_ok, cli_refused, globals_,
    instances, kstats, module_loaded, remove_instances, require_command,
    require_global, run, stats, stats_flat)
from .frames import (  # noqa: F401
    Capture, ETH_P_ALL, GSO_ECN, GSO_NONE, GSO_TCPV4, GSO_TCPV6, GSO_UDP,
    GSO_UDP_L4, PACKET_OUTGOING, Sender, TcpdumpCapture, _describe, any_ip,
    inject, is_ip4, is_ip6, none_on, vnet, vnet_tun)
from .netns import (  # noqa: F401
    ETHTOOL_GTXCSUM, ETHTOOL_STXCSUM, Netns, SIOCETHTOOL, link_stats, set_mtu,
    snmp, snmp6, tx_checksum, wait_snmp6)
from .packets import (  # noqa: F401
    ECHO_4TO6, ECHO_6TO4, IPV6_SKIPPED_EXTHDRS, PAYLOAD, addr4, addr6,
    frag6_header, icmp4_message, icmp6_message, inet_csum, ip4_packet,
    ip6_packet, pseudo, pseudo4, pseudo6, tcp_segment_bytes, udp4, udp6,
    udp6_checksum, udp_datagram, with_csum, xlat_inner_4to6, xlat_inner_6to4)
from .checks import (  # noqa: F401
    assert_frame4, assert_frame6, assert_ipv4, assert_ipv6, check_checksums,
    fragment6_parts, ip_bytes, ipv4_fields, ipv6_fields, l4_bytes, l4_payload,
    reassemble)
from .counters import Counters  # noqa: F401
from .topology import (  # noqa: F401
    Topology, both_translated, nothing_out, untranslated46, untranslated64,
    xlat46, xlat64)
from .traffic import Thread, recv_all, sha256, tcp_exchange  # noqa: F401
