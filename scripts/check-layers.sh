#!/bin/sh
# Checks the dependency rule of docs/ARCHITECTURE.md: each layer of
# Sources/IdleLock imports only the C modules its row allows. (Swift has no
# per-folder visibility; this keeps the folders honest about what they see.)
#
#   sh scripts/check-layers.sh        prints "check-layers: N passed, N failed"
set -u
cd "$(dirname "$0")/.." || exit 2

allowed() {
    case "$1" in
        Common|Rules) echo "" ;;
        Crypto|Store) echo "CSystem" ;;
        Handle) echo "CSystem CIdleLockSupport" ;;
        ABI) echo "CIdleLock CSystem CIdleLockSupport" ;;
        *) echo "?" ;;
    esac
}

passed=0
failed=0
for file in Sources/IdleLock/*/*.swift Sources/IdleLock/*.swift; do
    [ -f "$file" ] || continue
    layer=$(basename "$(dirname "$file")")
    ok=$(allowed "$layer")
    if [ "$ok" = "?" ]; then
        echo "check-layers: $file is in no layer folder (docs/ARCHITECTURE.md lists them)"
        failed=$((failed + 1))
        continue
    fi
    bad=""
    for module in $(sed -n 's/^[[:space:]]*\(@[A-Za-z_]*[[:space:]]\{1,\}\)*import[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\2/p' "$file"); do
        case " $ok " in
            *" $module "*) ;;
            *) bad="$bad $module" ;;
        esac
    done
    if [ -n "$bad" ]; then
        echo "check-layers: $file ($layer/) imports$bad; $layer/ may import: ${ok:-nothing} (docs/ARCHITECTURE.md)"
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
done
echo "check-layers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
