// libFuzzer target for the response-template compiler and renderer (MockServer/Stubs/Templating).
//
// Not a package target: scripts/fuzz.sh compiles this file together with the stub engine's sources, so the
// internal types are reachable without changing their access level.
//
// Oracles, beyond "no crash, no sanitizer report":
// - compiling either succeeds or throws Template.Failure, and rendering either succeeds or throws it, within
//   the renderer's step and output limits (libFuzzer's -timeout catches a hang);
// - a template without "{{" compiles and renders to itself (with \{{ escapes absent);
// - rendering twice gives the same text unless the template asks for randomness or the clock.
import Foundation

private func makeRequest() -> ServerRequest {
    ServerRequest(
        method: "POST", target: "/contacts/42/addresses/7?search=a&search=b&q=%3Cx%3E",
        headers: ["Host": "127.0.0.1:8080", "X-Request-Id": "abc", "Cookie": "session=s1; theme=dark"],
        body: Data(
            #"{"items": [{"id": 1, "name": "one"}, {"id": 2, "name": "two"}], "n": 3, "s": "text"}"#.utf8),
        remoteAddress: "127.0.0.1:5000")
}

/// Made per input: LeakSanitizer reports what a lazily initialised global allocates in the first run.
private func makeContext() -> TemplateValue {
    TemplateValue.map([
        "request": TemplatedResponse.requestModel(
            RequestView(makeRequest()),
            pathTemplate: PathTemplate("/contacts/{contactId}/addresses/{addressId}")),
        "parameters": .map(["greeting": .string("hi")]),
    ])
}
/// Small limits, so deep or long templates stay fast.
private let environment = TemplateEnvironment(
    now: Date(timeIntervalSince1970: 1_700_000_000), maxSteps: 20_000, maxOutput: 64 * 1024)

@_cdecl("LLVMFuzzerTestOneInput")
public func templateFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let template: Template
    do {
        template = try Template(text)
    } catch {
        return 0
    }
    let context = makeContext()
    let first: String
    do {
        first = try template.render(context, environment: environment)
    } catch {
        return 0
    }
    // Searched as bytes: a combining mark after "{" makes "{{" no substring of the Characters.
    let bytes = Array(text.utf8)
    let hasBraces = zip(bytes, bytes.dropFirst()).contains {
        $0 == UInt8(ascii: "{") && $1 == UInt8(ascii: "{")
    }
    if !hasBraces && first != text {
        fatalError("plain text changed by rendering: \(text.debugDescription) → \(first.debugDescription)")
    }
    if !text.contains("random") && !text.contains("UUID") {
        let second = try? template.render(context, environment: environment)
        if second != first { fatalError("rendering is not deterministic for \(text.debugDescription)") }
    }
    return 0
}
