import CourierPrimitives
import Foundation

/// Reads a document and every file its `$ref`s name, rewrites the references to canonical form, and
/// checks that each names something.
struct DocumentLoader {
    let rootURL: URL
    let rootFolder: URL
    let allowOutside: Bool
    var files: [String: JSONValue] = [:]
    var queue: [String] = []
    var references: [(file: String, pointer: JSONPointer, target: String)] = []
    var problems: [OpenAPIProblem] = []
    var outside: [OpenAPIProblem] = []
    var warnings: [OpenAPIProblem] = []
    /// JSON Schema 2020-12 `$id`s of the document's schemas, and where each is.
    var identifiers: [String: JSONPointer] = [:]
    /// `$anchor`s by the `$id` of the schema resource they are in ("" for the document) and name.
    var anchors: [String: JSONPointer] = [:]

    /// The largest file read.
    static let maxFileBytes = 64 << 20

    init(rootURL: URL, allowOutside: Bool) {
        self.rootURL = rootURL.standardizedFileURL
        self.rootFolder = self.rootURL.deletingLastPathComponent()
        self.allowOutside = allowOutside
    }

    mutating func load(rootData: Data?) throws(OpenAPIDocumentError) -> OpenAPIDocument {
        let rootName = rootURL.lastPathComponent
        let rootText: Data
        if let rootData { rootText = rootData } else { rootText = try Self.read(rootURL, name: rootName) }
        let rootValue = try Self.parse(rootText, name: rootName)
        let (versionString, version) = try Self.version(of: rootValue, file: rootName)
        if version == .v3_1 { collectIdentifiers(rootValue, pointer: .root, resource: "") }
        let root = rewrite(rootValue, file: "", pointer: .root)
        try refuseOutside(rootName)
        while let next = queue.popLast() {
            let url = URL(fileURLWithPath: next, relativeTo: rootFolder).standardizedFileURL
            let parsed = try Self.parse(try Self.read(url, name: next), name: next)
            files[next] = rewrite(parsed, file: next, pointer: .root)
            try refuseOutside(rootName)
        }
        let document = OpenAPIDocument(
            url: rootURL, version: version, versionString: versionString, root: root, files: files,
            warnings: warnings)
        checkReferences(in: document)
        var structure = StructureCheck(document: document)
        problems += structure.run()
        guard problems.isEmpty else {
            throw OpenAPIDocumentError(
                .invalid, file: rootName, problems: problems,
                reason: "not a valid OpenAPI \(versionString) document: \(problems.count) problem(s)")
        }
        return document
    }

    /// A `$ref` out of the document's folder is refused before anything outside is read.
    private func refuseOutside(_ rootName: String) throws(OpenAPIDocumentError) {
        guard !outside.isEmpty else { return }
        throw OpenAPIDocumentError(
            .referenceOutsideRoot, file: rootName, problems: outside,
            reason: "a $ref names a file outside the document's folder; allow it explicitly to read it")
    }

    static func read(_ url: URL, name: String) throws(OpenAPIDocumentError) -> Data {
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            if let size = attributes[.size] as? Int, size > maxFileBytes {
                throw OpenAPIDocumentError(
                    .unreadable, file: name, reason: "larger than \(maxFileBytes) bytes")
            }
            return try Data(contentsOf: url)
        } catch let error as OpenAPIDocumentError {
            throw error
        } catch {
            throw OpenAPIDocumentError(
                .unreadable, file: name, reason: "cannot read: \(error.localizedDescription)")
        }
    }

    /// JSON when the text starts with `{` or `[`, YAML otherwise.
    static func parse(_ data: Data, name: String) throws(OpenAPIDocumentError) -> JSONValue {
        let first = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            if let error = JSONSyntax.firstError(in: data) {
                throw OpenAPIDocumentError(
                    .syntax, file: name, line: error.line, column: error.column,
                    reason: "malformed JSON: \(error.reason)")
            }
            do {
                return try JSONValue.parse(data)
            } catch {
                throw OpenAPIDocumentError(.syntax, file: name, reason: "malformed JSON: \(error)")
            }
        }
        do {
            return try YAML.parse(data)
        } catch {
            throw OpenAPIDocumentError(
                .syntax, file: name, line: error.line, column: error.column, reason: error.reason)
        }
    }

    static func version(of root: JSONValue, file: String) throws(OpenAPIDocumentError) -> (
        String, OpenAPIDocument.Version
    ) {
        guard case .object = root else {
            throw OpenAPIDocumentError(
                .invalid, file: file,
                problems: [
                    OpenAPIProblem(pointer: .root, message: "a document is an object, not \(root.typeName)")
                ],
                reason: "not an OpenAPI document")
        }
        if root["swagger"] != nil {
            throw OpenAPIDocumentError(
                .unsupportedVersion, file: file,
                reason: "Swagger 2.0 is not read; convert it to OpenAPI 3 first")
        }
        guard let text = root["openapi"]?.stringValue else {
            throw OpenAPIDocumentError(
                .invalid, file: file,
                problems: [
                    OpenAPIProblem(
                        pointer: JSONPointer(tokens: ["openapi"]),
                        message: "required: the version, a string like 3.1.0")
                ], reason: "not an OpenAPI document")
        }
        if text.hasPrefix("3.0.") || text == "3.0" { return (text, .v3_0) }
        if text.hasPrefix("3.1.") || text == "3.1" { return (text, .v3_1) }
        throw OpenAPIDocumentError(
            .unsupportedVersion, file: file, reason: "OpenAPI \(text) is not read; 3.0.x and 3.1.x are")
    }

    /// Keys whose values are data, not OpenAPI objects: a `$ref` inside them is a literal.
    private static let literalKeys: Set<String> = ["example", "default", "enum", "const"]

    mutating func rewrite(_ value: JSONValue, file: String, pointer: JSONPointer) -> JSONValue {
        switch value {
        case .object(var members):
            if case .string(let reference) = members["$ref"], !isLiteral(pointer.appending("$ref")) {
                if let canonical = canonicalize(reference, from: file, at: pointer) {
                    members["$ref"] = .string(canonical)
                    references.append((file, pointer, canonical))
                }
            }
            for (key, member) in members where key != "$ref" && !isLiteral(pointer.appending(key)) {
                members[key] = rewrite(member, file: file, pointer: pointer.appending(key))
            }
            if case .array(let types) = members["type"], types.contains(.null) {
                members["type"] = .array(types.map { $0 == .null ? .string("null") : $0 })
                for (index, type) in types.enumerated() where type == .null {
                    warnings.append(
                        OpenAPIProblem(
                            file: file.isEmpty ? nil : file,
                            pointer: pointer.appending("type").appending(index),
                            message: "a YAML null in a type list, read as the type \"null\"; write it 'null'")
                    )
                }
            }
            return .object(members)
        case .array(let items):
            return .array(items.enumerated().map { rewrite($1, file: file, pointer: pointer.appending($0)) })
        default:
            return value
        }
    }

    /// Whether the value at `pointer` is example or default data.
    private func isLiteral(_ pointer: JSONPointer) -> Bool {
        let tokens = pointer.tokens
        guard let last = tokens.last else { return false }
        let parent = tokens.count >= 2 ? tokens[tokens.count - 2] : ""
        if Self.literalKeys.contains(last) { return parent != "properties" }
        if last == "value", tokens.count >= 3, tokens[tokens.count - 3] == "examples" { return true }
        return false
    }

    /// Records the `$id` and `$anchor` of every schema in the document (3.1), so that a `$ref` may
    /// name a schema by them.
    mutating func collectIdentifiers(_ value: JSONValue, pointer: JSONPointer, resource: String) {
        switch value {
        case .object(let members):
            var resource = resource
            if let id = members["$id"]?.stringValue, !isLiteral(pointer.appending("$id")) {
                let base = id.split(separator: "#", maxSplits: 1).first.map(String.init) ?? id
                identifiers[base] = pointer
                resource = base
            }
            if let anchor = members["$anchor"]?.stringValue, !isLiteral(pointer.appending("$anchor")) {
                anchors[resource + "#" + anchor] = pointer
            }
            for (key, member) in members where !isLiteral(pointer.appending(key)) {
                collectIdentifiers(member, pointer: pointer.appending(key), resource: resource)
            }
        case .array(let items):
            for (index, item) in items.enumerated() {
                collectIdentifiers(item, pointer: pointer.appending(index), resource: resource)
            }
        default:
            break
        }
    }

    /// A reference to a schema by `$id` or `$anchor`, as a pointer into the document.
    private func identified(path: String, fragment: String) -> String? {
        let base: JSONPointer
        if path.isEmpty {
            base = .root
        } else if let found = identifiers[path] {
            base = found
        } else {
            return nil
        }
        if fragment.isEmpty { return "#" + base.description }
        if fragment.hasPrefix("/") {
            guard let rest = try? JSONPointer(fragment: fragment) else { return nil }
            return "#" + JSONPointer(tokens: base.tokens + rest.tokens).description
        }
        return anchors[path + "#" + fragment].map { "#" + $0.description }
    }

    /// The canonical form of `reference` written in `file`, queueing a file not read yet.
    mutating func canonicalize(_ reference: String, from file: String, at pointer: JSONPointer) -> String? {
        let (path, fragment) = OpenAPIDocument.split(reference)
        if file.isEmpty, !identifiers.isEmpty || !anchors.isEmpty,
            path.isEmpty ? !fragment.hasPrefix("/") && !fragment.isEmpty : true,
            let target = identified(path: path, fragment: fragment)
        {
            return target
        }
        if path.isEmpty { return file + "#" + fragment }
        if path.contains("://") || path.hasPrefix("//") {
            problems.append(
                OpenAPIProblem(
                    file: file.isEmpty ? nil : file, pointer: pointer.appending("$ref"),
                    message: "'\(reference)': remote references are not fetched; use a local file"))
            return nil
        }
        let decoded = path.removingPercentEncoding ?? path
        if decoded.hasPrefix("/") && !allowOutside {
            outside.append(
                OpenAPIProblem(
                    file: file.isEmpty ? nil : file, pointer: pointer.appending("$ref"),
                    message: "'\(reference)' is an absolute path; name a file by its path from the document"))
            return nil
        }
        let base = URL(
            fileURLWithPath: file.isEmpty ? rootURL.lastPathComponent : file, relativeTo: rootFolder)
        let target = URL(fileURLWithPath: decoded, relativeTo: base.deletingLastPathComponent())
            .standardizedFileURL
        if target.path == rootURL.path { return "#" + fragment }
        let folder = rootFolder.path.hasSuffix("/") ? rootFolder.path : rootFolder.path + "/"
        let relative: String
        if target.path.hasPrefix(folder) {
            relative = String(target.path.dropFirst(folder.count))
        } else if allowOutside {
            relative = Self.relativePath(from: rootFolder, to: target)
        } else {
            outside.append(
                OpenAPIProblem(
                    file: file.isEmpty ? nil : file, pointer: pointer.appending("$ref"),
                    message: "'\(reference)' names a file outside the document's folder"))
            return nil
        }
        if files[relative] == nil && !queue.contains(relative) {
            files[relative] = .null
            queue.append(relative)
        }
        return relative + "#" + fragment
    }

    static func relativePath(from folder: URL, to target: URL) -> String {
        let base = folder.standardizedFileURL.pathComponents
        let parts = target.pathComponents
        var common = 0
        while common < base.count, common < parts.count, base[common] == parts[common] { common += 1 }
        return (Array(repeating: "..", count: base.count - common) + parts[common...]).joined(separator: "/")
    }

    /// Every reference names a value, and no chain of references loops.
    mutating func checkReferences(in document: OpenAPIDocument) {
        for reference in references {
            let file = reference.file.isEmpty ? nil : reference.file
            let at = reference.pointer.appending("$ref")
            let (_, fragment) = OpenAPIDocument.split(reference.target)
            do {
                _ = try JSONPointer(fragment: fragment)
            } catch {
                problems.append(OpenAPIProblem(file: file, pointer: at, message: error.description))
                continue
            }
            guard var current = document.target(of: reference.target) else {
                problems.append(
                    OpenAPIProblem(file: file, pointer: at, message: "'\(reference.target)' names nothing"))
                continue
            }
            var seen: Set<String> = [reference.target]
            while let next = current["$ref"]?.stringValue {
                guard seen.insert(next).inserted, seen.count <= OpenAPIDocument.maxReferenceChain else {
                    problems.append(
                        OpenAPIProblem(
                            file: file, pointer: at, message: "'\(reference.target)' is a cycle of references"
                        ))
                    break
                }
                guard let value = document.target(of: next) else { break }
                current = value
            }
        }
    }
}
