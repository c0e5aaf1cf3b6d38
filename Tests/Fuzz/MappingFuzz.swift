// libFuzzer target for loading WireMock mappings (MockServer/Stubs/Store), templates and proxy keys included.
//
// Not a package target: scripts/fuzz.sh compiles this file with the stub engine's sources.
//
// Oracles, beyond "no crash, no sanitizer report":
// - a document loads or is refused with ValuePattern.InvalidMapping (never another error, never a trap);
// - every loaded stub can be matched against a request, ranked as a near miss, and its response made
//   (templated responses rendered) without trapping;
// - a stub that matches has no mismatches, and one that does not has at least one.
import Foundation

/// Made per input: LeakSanitizer reports what a lazily initialised global allocates in the first run.
private func makeRequest() -> ServerRequest {
    ServerRequest(
        method: "POST", target: "/users/42?active=true",
        headers: ["Host": "127.0.0.1:8080", "Content-Type": "application/json", "Cookie": "a=1"],
        body: Data(#"{"name": "Ann", "tags": ["x"]}"#.utf8), remoteAddress: "127.0.0.1:5000")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func mappingFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let json = try? JSONValue.parse(bytes) else { return 0 }
    let stubs: [StubMapping]
    do {
        stubs = try MappingLoader.mappings(in: json, location: "fuzz", globalTemplating: size % 2 == 0)
    } catch is ValuePattern.InvalidMapping {
        return 0
    } catch {
        fatalError("loading threw \(type(of: error)), not InvalidMapping")
    }
    let store = StubStore(filesDirectory: URL(fileURLWithPath: "/nonexistent-fuzz-files"))
    for stub in stubs { store.add(stub) }
    let view = RequestView(makeRequest())
    for stub in stubs {
        let matches = stub.request.matches(view)
        let mismatches = stub.request.mismatches(view)
        if matches != mismatches.isEmpty {
            fatalError("matches (\(matches)) disagrees with \(mismatches.count) mismatches")
        }
        if let templated = stub.response.templated {
            _ = TemplatedResponse.response(
                for: stub, templated, view: view, filesDirectory: store.filesDirectory)
        } else if stub.response.proxy == nil {
            _ = stub.response.makeResponse(filesDirectory: store.filesDirectory)
        }
    }
    _ = store.match(view)
    _ = store.nearMisses(view, limit: 3)
    return 0
}
