#!/bin/sh
# Traces in object storage: s3://, gs:// and az:// through stand-ins for the
# aws, gcloud and az CLIs (no network), standard input, and a clear message
# when a CLI is missing.
. "${SRCDIR:-.}/tests/lib.sh"
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
mkdir "$D/bin" "$D/store"
"$TRACETOP" demo-trace -q -o "$D/store" --ranks 2 --steps 2 --gzip || exit 99
# stand-ins: they print the object's file from $STORE, or list the files
cat > "$D/bin/aws" <<'SH'
#!/bin/sh
# aws s3api list-objects-v2 --bucket B --prefix P --query Contents[].Key --output json
if [ "$1" = s3api ]; then
	p=$6; sep='['
	for f in "$STORE"/*; do printf '%s"%s%s"' "$sep" "$p" "${f##*/}"; sep=', '; done
	[ "$sep" = '[' ] && echo null || echo ']'
	exit 0
fi
exec cat "$STORE/${4##*/}"
SH
cat > "$D/bin/gcloud" <<'SH'
#!/bin/sh
if [ "$2" = ls ]; then for f in "$STORE"/*; do echo "$3${f##*/}"; done; exit 0; fi
exec cat "$STORE/${3##*/}"
SH
cat > "$D/bin/az" <<'SH'
#!/bin/sh
# az storage blob download ... --name BLOB --file /dev/stdout
# az storage blob list ... --prefix P --query [].name --output json
if [ "$3" = list ]; then
	while [ $# -gt 0 ]; do [ "$1" = --prefix ] && p=$2; shift; done
	sep='['
	for f in "$STORE"/*; do printf '%s"%s%s"' "$sep" "$p" "${f##*/}"; sep=', '; done
	echo ']'
	exit 0
fi
while [ $# -gt 0 ]; do [ "$1" = --name ] && exec cat "$STORE/${2##*/}"; shift; done
exit 3
SH
chmod +x "$D/bin/"*
export STORE="$D/store"
P="$D/bin:/usr/bin:/bin"
for url in s3://b/t/rank-1.pt.trace.json.gz gs://b/t/rank-1.pt.trace.json.gz az://acct/cont/t/rank-1.pt.trace.json.gz; do
	PATH=$P "$TRACETOP" report summary -q -f csv "$url" > "$D/out" 2>&1
	if grep -q "^rank-1.pt.trace.json.gz,1," "$D/out"; then pass "$url"; else fail "$url: $(cat "$D/out")"; fi
done
PATH=$P "$TRACETOP" report summary -q -f csv s3://b/t/ > "$D/out" 2>&1
[ "$(tail -n +2 "$D/out" | wc -l)" = 2 ] && pass "an s3:// prefix lists its traces" || fail "prefix: $(cat "$D/out")"
for url in gs://b/t/ az://acct/cont/t/; do
	PATH=$P "$TRACETOP" report summary -q -f csv "$url" > "$D/out" 2>&1
	[ "$(tail -n +2 "$D/out" | wc -l)" = 2 ] && pass "an ${url%%:*}:// prefix lists its traces" ||
		fail "$url: $(cat "$D/out")"
done
# a missing object: the CLI fails, the message says so, other ranks load
PATH=$P "$TRACETOP" report summary -q -f csv s3://b/t/nope.json.gz "$STORE/rank-0.pt.trace.json.gz" > "$D/out" 2>"$D/err"
check_rc "missing object" 0 $? && grep -q "s3://b/t/nope.json.gz: aws failed (exit status 1)" "$D/err" &&
	grep -q "^rank-0" "$D/out" && pass "a missing object is reported, the rest loads" ||
	fail "missing object: $(cat "$D/err")"
# no CLI installed
PATH=/nonexistent "$TRACETOP" report summary gs://b/x.json.gz >/dev/null 2>"$D/err"
check_rc "no gcloud" 2 $? && grep -q "gs:// paths need gcloud or gsutil, neither is installed" "$D/err" &&
	pass "a missing CLI is named" || fail "missing CLI: $(cat "$D/err")"
# standard input, plain and gzip
zcat "$STORE/rank-1.pt.trace.json.gz" | "$TRACETOP" report summary -q -f csv - > "$D/out"
grep -q '^-,1,' "$D/out" && pass "plain JSON on standard input" || fail "stdin: $(cat "$D/out")"
"$TRACETOP" report summary -q -f csv - < "$STORE/rank-0.pt.trace.json.gz" > "$D/out"
grep -q '^-,0,' "$D/out" && pass "gzip on standard input" || fail "stdin gzip: $(cat "$D/out")"
summary
