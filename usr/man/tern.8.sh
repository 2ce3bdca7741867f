#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Writes the manual page tern(8) on stdout from the help of the tern CLI
# given as $1 (`tern --help`, each command's --help: usage lines, options,
# the settings of include/tern_globals.h, the counters), so that the page
# says what the CLI does and cannot drift from it. Usage: tern.8.sh TERN
set -eu
tern=$1
version=$("$tern" --version 2>/dev/null | sed -n '1s/^tern \([^ ]*\).*/\1/p')

# roff-safe text: backslashes and leading dots or quotes.
esc() { sed -e 's/\\/\\e/g' -e "s/^[.']/\\\\\\&&/"; }
# A block of help text, verbatim.
verbatim() { echo ".nf"; esc; echo ".fi"; }

cat <<EOF
.TH TERN 8 "" "tern $version" "System Administration"
.SH NAME
tern \\- configure the Tern SIIT/NAT64 translator
.SH SYNOPSIS
.nf
EOF
"$tern" --help | sed -n '/^Commands:/,/^$/{s/^  /tern [-i NAME] [-j] /p}' | esc
cat <<'EOF'
.fi
.SH DESCRIPTION
.B tern
configures the kernel module
.BR tern.ko ,
an IPv4/IPv6 translator: SIIT (RFC 7915, RFC 6052 addresses, RFC 7757
EAM) and stateful NAT64 (RFC 6146). Translators are named instances of a
network namespace; an instance takes every packet of its namespace
(netfilter mode, at most one a namespace) or what iptables
rules hand it (iptables mode, see
.BR tern-iptables (8)).
The command talks to the module over generic netlink and needs
CAP_NET_ADMIN.
.SH OPTIONS
EOF
"$tern" --help | sed -n '/^Options:/,/^$/p' | sed '1d' | verbatim
"$tern" --help | sed -n '/^Short options/,$p' | verbatim
echo ".SH COMMANDS"
# Each command's own help, in the order of tern --help.
"$tern" --help | sed -n '/^Commands:/,/^$/{s/^  //p}' |
	awk '{ c = ($2 ~ /^[a-z][a-z0-9]*$/) ? $1 " " $2 : $1; if (!seen[c]++) print c }' |
	while read -r cmd; do
		echo ".SS $cmd"
		# shellcheck disable=SC2086
		"$tern" $cmd --help | verbatim
	done
cat <<'EOF'
.SH SETTINGS
Each instance has the settings below
.RB ( "tern global set KEY VALUE" ,
.BR "tern global show" ).
EOF
"$tern" global set --help | sed -n '/^Keys:/,$p' | verbatim
cat <<'EOF'
.SH COUNTERS
EOF
"$tern" stats --help | sed -n '/^Counters:/,$p' | verbatim
cat <<'EOF'
.SH EXAMPLES
A SIIT edge (its IPv6 hosts reach IPv4 through 2001:db8:64::/96):
.PP
.nf
tern instance add edge \-\-siit \-\-pool6 2001:db8:64::/96
tern \-i edge eamt add 2001:db8:6::/120 198.51.100.0/24
tern \-i edge stats
.fi
.PP
A NAT64 (PLAT) with the well-known prefix and four IPv4 addresses:
.PP
.nf
tern instance add plat \-\-nat64 \-\-pool6 64:ff9b::/96
tern \-i plat pool4 add 192.0.2.0/30
tern \-i plat global set max-sessions 1000000
tern \-i plat session list \-\-json
.fi
.PP
The whole configuration kept in a file and applied again at boot:
.PP
.nf
tern config show > /etc/tern/tern.json
tern config apply /etc/tern/tern.json
.fi
.SH EXIT STATUS
0 on success, 1 if the kernel refused the request or something failed, 2
on a usage error. An error is one line on standard error.
.SH FILES
.TP
.I /etc/tern/*.json
the configuration tern.service applies at boot
.RB ( "tern config apply" ).
.SH SEE ALSO
.BR tern-iptables (8),
.BR iptables (8),
.BR systemctl (1)
EOF
