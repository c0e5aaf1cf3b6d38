// libFuzzer target for the JSONPath compiler and evaluator (MockServer/Stubs/JSON).
//
// Not a package target: scripts/fuzz.sh compiles this file with the stub engine's sources.
//
// Input: the first line is the expression, the rest (if any) a JSON document; without one, a fixed
// document is used. Oracles, beyond "no crash, no sanitizer report":
// - compiling either succeeds or throws JSONPath.SyntaxError;
// - a definite path selects at most one value;
// - `matches` agrees with `evaluate` (WireMock's rule: a non-null value or a non-empty container).
import Foundation

/// Built per input that has no document (decoding text each time would be slow; a lazily initialised
/// global is reported by LeakSanitizer).
private func fixedDocument() -> JSONValue {
    let books: JSONValue = .array([
        .object([
            "category": .string("fiction"), "author": .string("A"), "price": .double(8.95),
            "tags": .array([.string("x"), .string("y")]),
        ]),
        .object([
            "category": .string("ref"), "author": .string("B"), "price": .int(12), "isbn": .string("0-1"),
        ]),
    ])
    return .object([
        "store": .object([
            "book": books, "bicycle": .object(["color": .string("red"), "price": .double(19.95)]),
        ]),
        "empty": .array([]), "nothing": .null, "n": .int(-3),
        "nested": .array([
            .array([.int(1), .array([.int(2), .array([.int(3)])])]),
            .object(["a": .object(["a": .object(["a": .int(1)])])]),
        ]),
    ])
}

@_cdecl("LLVMFuzzerTestOneInput")
public func jsonPathFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let newline = bytes.firstIndex(of: 10) ?? bytes.count
    let expression = String(decoding: bytes[..<newline], as: UTF8.self)
    var document = fixedDocument()
    if newline < bytes.count, let parsed = try? JSONValue.parse(Data(bytes[(newline + 1)...])) {
        document = parsed
    }
    let path: JSONPath
    do {
        path = try JSONPath(expression)
    } catch is JSONPath.SyntaxError {
        return 0
    } catch {
        fatalError("JSONPath threw \(type(of: error)), not a SyntaxError")
    }
    let results = path.evaluate(document)
    if path.isDefinite && results.count > 1 {
        fatalError("definite path \(expression.debugDescription) selected \(results.count) values")
    }
    let expected: Bool
    if path.isDefinite {
        switch results.first {
        case nil, .null?: expected = false
        case .array(let items)?: expected = !items.isEmpty
        case .object(let members)?: expected = !members.isEmpty
        default: expected = true
        }
    } else {
        expected = !results.isEmpty
    }
    if path.matches(document) != expected {
        fatalError("matches disagrees with evaluate for \(expression.debugDescription)")
    }
    return 0
}
