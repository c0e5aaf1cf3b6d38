#!/usr/bin/env bash
# Checks that asking for the wrong response type does not compile, and that the README's examples
# compile from outside the package.
#
# Each Tests/CompileFail/wrong-*.swift snippet must fail to type-check against the built Courier and
# Endpoints modules with the error its `// error: REGEX` line names (by default, the wrong response
# type's); right-*.swift must type-check.
# The README's examples must type-check as a user's code would, with the public API alone: the test
# targets that run them are inside the package and also see its `package` declarations.
# Usage: scripts/compile-fail.sh   (after `swift build`; env: MODULES=.build/debug/Modules)
set -euo pipefail
cd "$(dirname "$0")/.."
modules="${MODULES:-.build/debug/Modules}"
[ -d "$modules" ] || { echo "compile-fail: no built modules in $modules; run swift build first" >&2; exit 1; }
passed=0
failed=0
# The C modules' maps, for snippets whose imports reach them (the transports' examples reach CCurl).
clang_paths=(-I .build/debug/CCurlShim.build -I Sources/CCurlShim/include -I Sources/CCurl)
for snippet in Tests/CompileFail/*.swift; do
  name="$(basename "$snippet")"
  if output="$(swiftc -typecheck -I "$modules" "${clang_paths[@]}" "$snippet" 2>&1)"; then compiled=yes; else compiled=no; fi
  case "$name" in
    wrong-*)
      # The error a snippet must fail with: its own `// error: REGEX` line, else the wrong response type's.
      expected="$(sed -n 's|^// error: ||p' "$snippet" | head -1)"
      [ -n "$expected" ] || expected="error: (cannot (assign|convert) value of type 'Response<PostsPage>'|instance method 'send\(_:as:progress:\)' requires that 'Endpoint<PostsPage>' conform to 'URLRequestConvertible')"
      case "$expected" in error:*) ;; *) expected="error: $expected" ;; esac
      if [ "$compiled" = no ] && grep -qE "$expected" <<<"$output"; then
        echo "compile-fail: $name refused as expected"; passed=$((passed + 1))
      else
        echo "compile-fail: $name was not refused for its type (compiled: $compiled)"; echo "$output"; failed=$((failed + 1))
      fi ;;
    *)
      if [ "$compiled" = yes ]; then
        echo "compile-fail: $name compiles, as it must"; passed=$((passed + 1))
      else
        echo "compile-fail: $name does not compile"; echo "$output"; failed=$((failed + 1))
      fi ;;
  esac
done
for example in Tests/ReadmeExamplesTests/Readme*Example.swift \
  Tests/MockServerContractTests/ExampleAPI/NotesAPI.swift; do
  if output="$(swiftc -typecheck -I "$modules" "${clang_paths[@]}" "$example" 2>&1)"; then
    echo "compile-fail: $(basename "$example") compiles with the public API alone"; passed=$((passed + 1))
  else
    echo "compile-fail: $(basename "$example") needs more than the public API"; echo "$output"; failed=$((failed + 1))
  fi
done
# The README's stub check uses the README's notes API: both files together, public API alone.
if output="$(swiftc -typecheck -I "$modules" "${clang_paths[@]}" Tests/MockServerContractTests/ExampleAPI/NotesAPI.swift \
  Tests/MockServerContractTests/ExampleAPI/ReadmeStubCheckExample.swift 2>&1)"; then
  echo "compile-fail: ReadmeStubCheckExample.swift compiles with the public API alone"; passed=$((passed + 1))
else
  echo "compile-fail: ReadmeStubCheckExample.swift needs more than the public API"; echo "$output"; failed=$((failed + 1))
fi
# The README's responder example uses the same notes API.
if output="$(swiftc -typecheck -I "$modules" "${clang_paths[@]}" Tests/MockServerContractTests/ExampleAPI/NotesAPI.swift \
  Tests/MockServerContractTests/ExampleAPI/ReadmeResponderExample.swift 2>&1)"; then
  echo "compile-fail: ReadmeResponderExample.swift compiles with the public API alone"; passed=$((passed + 1))
else
  echo "compile-fail: ReadmeResponderExample.swift needs more than the public API"; echo "$output"; failed=$((failed + 1))
fi
# The classic enum as users paste it (the test target's copy, public API alone), and its last line.
seed_dir="$(mktemp -d)"
echo 'let request = OnboardingEndPoint.login(email: "ayush", password: "123456").asURLRequest()' >"$seed_dir/main.swift"
if output="$(swiftc -typecheck -I "$modules" Tests/CourierContractTests/Configurable/SeedOnboardingEndPoint.swift \
  "$seed_dir/main.swift" 2>&1)"; then
  echo "compile-fail: the pasted classic enum and its asURLRequest() line compile"; passed=$((passed + 1))
else
  echo "compile-fail: the pasted classic enum does not compile"; echo "$output"; failed=$((failed + 1))
fi
rm -rf "$seed_dir"
echo "compile-fail: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
