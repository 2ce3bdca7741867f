# shellcheck shell=bash
# Sourced by test/bench/stateful-vm.sh (its topology, gen, count, emit,
# slab_dirs, chunk): the fills of tput_teardown, timed, and what each
# table size costs (carrier scale: up to 10M sessions).
#
# fill_timed makes flows FROM..TO in chunks sent at once (closed loop:
# gen6 resends a frame veth refuses) into a backlog with room for twice
# a chunk; a chunk is sent again (up to 5 times) when some of it did not
# reach sink. The chunk grows with the fill: a twentieth of it, at least
# BENCH_CHUNK, at most BENCH_FILL_CHUNK (500000: 20 chunks for 10M, a
# backlog of 1M frames, some 0.5 GB of skbs at the worst), so that the
# fixed cost of a chunk (starting gen6, waiting for the count to stop)
# does not set the time of a 10M fill. A chunk's time runs from gen6's
# start to the last growth of sink's count, polled every 0.25 s; the
# chunk is done when the backlogs are: two polls in a row saw the stack
# take fewer than 16 packets (/proc/net/softnet_stat). Not sink's count
# alone: xl's output to sink queues in CPU 1's backlog behind the whole
# batch of input the backlog took at once (process_backlog splices its
# input queue), so sink can see nothing for seconds while xl works. The
# wait that tells the chunk is done is left out of its time.
#
# Each chunk is a window of raw.tsv (phase fill: from before gen6 starts
# to the end of the wait that tells the chunk is done, CPU 1's busy time
# and instructions over it). This shell and its commands run on CPU 0
# during a fill (taskset), so that CPU 1 counts the system's work only.
#
# Per size S (scale_emit), all 6to4 with flows = S:
#   sessions_fill_rate (sessions/s): S over the time of the chunks that
#     made the S sessions from the empty instance (the fills of the
#     smaller sizes before it included; resends included): how fast the
#     closed-loop fill established them.
#   sessions_fill_step_insns, sessions_fill_step_ns: the instructions CPU
#     1 executed, and its busy ns, over the chunks that grew the table
#     from the size before (0 for the first) to S, over the sessions they
#     made: what a new session costs at that size, which the generator's
#     start and the poll's granularity do not enter (they set the time of
#     a small fill: sessions_fill_rate). A chunk sent again counts with
#     its resend (whose frames of sessions already made are found).
#   slab_bytes_per_session (B): the bytes of the slabs (pages) of the
#     tables' slab caches (Tern: tern_session, tern_bib, tern_bib_pair, tern_peer; Jool
#     4.1.9: session_nodes, bib_nodes; /sys/kernel/slab/NAME/slabs x
#     PAGE_SIZE << order, what /proc/slabinfo's num_slabs x pagesperslab
#     gives), with S sessions less with the empty instance, over S: the
#     memory the sessions and their BIB entries took from the page
#     allocator, partly filled slabs included.
#   slab_obj_bytes_per_session (B): the same from the objects in use x
#     their slot size (/sys/kernel/slab/NAME/objects x slab_size): the
#     objects alone, without the slabs' unused room.
# The hash arrays (kvcalloc, sized by max-sessions at set-up) are in
# neither: they are fixed before the fill.
#
# Before a fill to S, scale_room estimates the memory it needs from what
# the system's slabs and vmalloc (hash arrays) grew a session so far
# (x 1.5, with the backlog's skbs) and skips S and the larger sizes of
# that system, with the reason in the log and OUTDIR/skipped.txt, when
# less than 256 MiB of MemAvailable would be left. (MemAvailable's own
# drop moves with the page cache and the backlog still queued: after a
# fill of 10,000 it once said 1,777 B a session, 15 x the slabs.) A fill
# that cannot make its sessions (5 tries of a chunk) does the same.
fill_chunk_max=${BENCH_FILL_CHUNK:-500000}
fill_ns=0 fill_busy=0 fill_insn=0 scale_prev=0

# processed: packets the stack took from the backlogs so far, all CPUs
# (/proc/net/softnet_stat, first column, hex).
processed() {
	local c t=0
	while read -r c _; do t=$((t + 16#$c)); done </proc/net/softnet_stat
	echo $t
}
meminfo() { awk -v k="$1:" '$1 == k { printf "%.0f\n", $2 * 1024 }' /proc/meminfo; }
# slab_pages DIRS...: bytes of their slabs; slab_objbytes DIRS...: objects
# in use x slot size, summed.
slab_pages() {
	local d s o b=0
	for d; do
		read -r s _ <"$d/slabs"
		read -r o <"$d/order"
		b=$((b + s * ($(getconf PAGESIZE) << o)))
	done
	echo $b
}
slab_objbytes() {
	local d n z b=0
	for d; do
		read -r n _ <"$d/objects"
		read -r z <"$d/slab_size"
		b=$((b + n * z))
	done
	echo $b
}

# scale_start DIRS...: the empty instance's figures (after sys_up).
scale_start() {
	fill_ns=0 scale_prev=0
	scale_p0=$(slab_pages "$@") scale_o0=$(slab_objbytes "$@")
	scale_a0=$(meminfo MemAvailable) scale_v0=$(meminfo VmallocUsed)
	scale_dirs=("$@")
}

fill_timed() {	# SYSTEM FROM TO: flows FROM..TO made (new sessions), timed
	local first n c0 a b p q t0 tl tries same s0 fc=$((($3 - $2 + 1) / 20))
	((fc >= chunk)) || fc=$chunk
	((fc <= fill_chunk_max)) || fc=$fill_chunk_max
	sysctl -qw net.core.netdev_max_backlog=$((fc * 2))
	fill_busy=0 fill_insn=0
	taskset -p -c 0 $$ >/dev/null
	for ((first = $2; first <= $3; first += fc)); do
		n=$(($3 - first + 1 < fc ? $3 - first + 1 : fc))
		for ((tries = 1; ; tries++)); do
			c0=$(count sink)
			s0=$(snap)
			t0=$(now)
			gen -n "$n" -f "$first" >/dev/null
			b=$(count sink) tl=$(now) same=0 p=$(processed)
			while ((same < 2)); do
				sleep 0.25
				a=$(count sink) q=$(processed)
				[ "$a" = "$b" ] || b=$a tl=$(now)
				if ((q - p < 16)); then
					same=$((same + 1))
				else
					same=0
				fi
				p=$q
			done
			fill_ns=$((fill_ns + tl - t0))
			win fill "$1" "$n" "$rep" "$s0" "$(snap)"
			fill_busy=$((fill_busy + w_busy)) fill_insn=$((fill_insn + w_insn))
			((b - c0 < n)) || break
			if ((tries >= 5)); then
				say "$1: flows $first+$n: $((b - c0)) arrived after $tries tries"
				sysctl -qw net.core.netdev_max_backlog="$backlog0"
				taskset -p -c "0-$(($(nproc) - 1))" $$ >/dev/null
				return 1
			fi
			say "$1: flows $first+$n: $((b - c0)) arrived, sending again"
		done
	done
	sysctl -qw net.core.netdev_max_backlog="$backlog0"
	taskset -p -c "0-$(($(nproc) - 1))" $$ >/dev/null
}

scale_skip() {	# SYSTEM S REASON: S and the larger sizes left out
	say "$1: $2 sessions and more skipped: $3"
	printf '%s\n' "$1: $2 sessions and more skipped: $3" >>"$outdir/skipped.txt"
}

scale_room() {	# SYSTEM S FILLED: 0 when the fill to S should fit
	local avail per need grown
	(($3 > 0)) || return 0
	avail=$(meminfo MemAvailable)
	grown=$(($(slab_pages "${scale_dirs[@]}") - scale_p0 +
		$(meminfo VmallocUsed) - scale_v0))
	per=$((grown / $3))
	((per > 0)) || per=0
	need=$((($2 - $3) * per * 3 / 2 + fill_chunk_max * 2 * 1024))
	((avail - need < 256 << 20)) || return 0
	scale_skip "$1" "$2" "with $3 sessions slabs and vmalloc grew $per B a" \
		"session; $(($2 - $3)) more need about $((need >> 20)) MiB," \
		"$((avail >> 20)) MiB available (VM_MEMORY)"
	return 1
}

scale_emit() {	# SYSTEM S REP DIRS...
	local sys=$1 s=$2 rep=$3 p o
	shift 3
	p=$(slab_pages "$@") o=$(slab_objbytes "$@")
	say "$sys: $s sessions made in $((fill_ns / 1000000)) ms of fill;" \
		"slabs of $* $((scale_p0 >> 10)) -> $((p >> 10)) KiB, objects" \
		"$((scale_o0 >> 10)) -> $((o >> 10)) KiB; MemAvailable" \
		"$((scale_a0 >> 20)) -> $(($(meminfo MemAvailable) >> 20)) MiB"
	emit sessions_fill_rate "$sys" 6to4 "$s" "$rep" \
		"$(awk -v n="$s" -v t="$fill_ns" 'BEGIN { printf "%.0f", t ? n / (t / 1e9) : 0 }')" \
		sessions/s
	emit sessions_fill_step_insns "$sys" 6to4 "$s" "$rep" \
		"$(awk -v i="$fill_insn" -v n=$((s - scale_prev)) 'BEGIN { printf "%.0f", i / n }')" \
		insns
	emit sessions_fill_step_ns "$sys" 6to4 "$s" "$rep" \
		"$(awk -v b="$fill_busy" -v n=$((s - scale_prev)) 'BEGIN { printf "%.0f", b / n }')" \
		ns
	scale_prev=$s
	emit slab_bytes_per_session "$sys" 6to4 "$s" "$rep" \
		"$(awk -v b=$((p - scale_p0)) -v n="$s" 'BEGIN { printf "%.1f", b / n }')" B
	emit slab_obj_bytes_per_session "$sys" 6to4 "$s" "$rep" \
		"$(awk -v b=$((o - scale_o0)) -v n="$s" 'BEGIN { printf "%.1f", b / n }')" B
}
