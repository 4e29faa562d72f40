#!/bin/sh
# symbols.sh NM LIBAPI_TRUST: TAP checks on what the trust objects call.
#
# Timing and layering are not visible to a unit test, but the symbols an
# object file needs are: the agent-key code must compare through
# libsodium's constant-time functions and through no libc compare, the
# token code must check MACs and signatures with libsodium, and nothing
# here may reach for libmicrohttpd or SQLite (api/ layering rule).
nm=$1
lib=$2
n=0
failed=0

if [ -z "$nm" ] || ! command -v "$nm" >/dev/null 2>&1; then
	echo "1..1"
	echo "not ok 1 - nm is installed (a check that cannot run fails)"
	exit 1
fi
undef() {
	"$nm" -A "$lib" | awk -v obj="$1" '$1 ~ ("[/_]" obj ":$") && $(NF-1) == "U" { print $NF }'
}
check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}
has() { undef "$1" | grep -qx "$2"; echo $?; }
lacks() { undef "$1" | grep -qxE "$2"; [ $? -ne 0 ]; echo $?; }

check "$(has agentkey.c.o crypto_verify_32)" "agentkey compares hashes with crypto_verify_32"
check "$(has agentkey.c.o sodium_memcmp)" "agentkey compares checksums with sodium_memcmp"
check "$(lacks agentkey.c.o 'memcmp|bcmp|strcmp|strncmp|strcasecmp|strncasecmp|timingsafe_bcmp')" \
	"agentkey calls no libc compare"
check "$(has paseto.c.o crypto_verify_32)" "paseto checks the v4.local tag with crypto_verify_32"
check "$(has paseto.c.o sodium_memcmp)" "paseto compares footers with sodium_memcmp"
check "$(has paseto.c.o crypto_sign_verify_detached)" "paseto verifies with libsodium's Ed25519"
check "$(has paseto.c.o crypto_stream_xchacha20_xor)" "paseto encrypts with libsodium's XChaCha20"
check "$(has paseto.c.o sodium_base642bin)" "paseto decodes base64url with libsodium"
all=$("$nm" -A "$lib" | awk '$(NF-1) == "U" { print $NF }')
check "$(echo "$all" | grep -qE '^(MHD_|sqlite3)'; [ $? -ne 0 ]; echo $?)" \
	"no libmicrohttpd or SQLite symbol in the trust library"
check "$([ -n "$all" ]; echo $?)" "nm listed the library's undefined symbols"

echo "1..$n"
[ "$failed" = 0 ]
