import CourierPrimitives

/// A loaded document read by pointer text, with `$ref` chains followed to where they end: the diff and
/// the generator name every place by its JSON pointer (`file#/pointer` in another file).
struct ReferencedDocument: Sendable {
    let document: OpenAPIDocument

    var root: JSONValue { document.root }

    /// The value at `location`: a pointer into the document, or `file#pointer` into a file it refers to.
    func value(at location: String) -> JSONValue? {
        let (file, fragment) =
            location.hasPrefix("/") || location.isEmpty ? ("", location) : OpenAPIDocument.split(location)
        guard let base = file.isEmpty ? document.root : document.files[file],
            let pointer = try? JSONPointer(parsing: fragment)
        else { return nil }
        return pointer.resolve(in: base)
    }

    /// `value` (found at `location`) with its `$ref` chain followed, and where it ends.
    /// - Throws: `OpenAPIDocumentError` for a reference to nothing, or a chain that does not end (the
    ///   loader refuses both; a document made another way may have them).
    func resolve(_ value: JSONValue, at location: String) throws(OpenAPIDocumentError) -> (
        value: JSONValue, pointer: String
    ) {
        var current = (value: value, pointer: location)
        for _ in 0..<OpenAPIDocument.maxReferenceChain {
            guard let reference = current.value["$ref"]?.stringValue else { return current }
            let (file, fragment) = OpenAPIDocument.split(reference)
            guard let next = document.target(of: reference),
                let pointer = try? JSONPointer(fragment: fragment)
            else {
                throw .at(current.pointer + "/$ref", "nothing at \(reference)")
            }
            current = (next, file.isEmpty ? pointer.description : file + "#" + pointer.description)
        }
        throw .at(
            current.pointer + "/$ref", "a chain of more than \(OpenAPIDocument.maxReferenceChain) references")
    }
}

extension OpenAPIDocumentError {
    /// An invalid document, with one problem at `location` (a pointer, or `file#pointer`).
    static func at(_ location: String, _ message: String) -> OpenAPIDocumentError {
        let (file, fragment) =
            location.hasPrefix("/") || location.isEmpty ? ("", location) : OpenAPIDocument.split(location)
        let pointer = (try? JSONPointer(parsing: fragment)) ?? .root
        return OpenAPIDocumentError(
            .invalid, file: file,
            problems: [OpenAPIProblem(file: file.isEmpty ? nil : file, pointer: pointer, message: message)],
            reason: message)
    }
}

/// Pointer text built token by token.
enum PointerText {
    /// `location` with `tokens` appended, each escaped (`~0`, `~1`).
    static func join(_ location: String, _ tokens: String...) -> String {
        location + JSONPointer(tokens: tokens).description
    }

    /// The last token of `location`, unescaped.
    static func lastToken(_ location: String) -> String {
        let fragment = location.hasPrefix("/") ? location : OpenAPIDocument.split(location).fragment
        return (try? JSONPointer(parsing: fragment))?.tokens.last ?? ""
    }
}
