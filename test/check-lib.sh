# Sourced by the scripts that print "ok NAME" / "FAIL NAME" per check
# (test/pkg.sh, test/dkms.sh): check NAME CMD... runs CMD and says which,
# and sets failed=1 on a failure.
failed=0
check() {
	local name=$1
	shift
	if "$@"; then echo "ok $name"; else echo "FAIL $name"; failed=1; fi
}
