import CourierPrimitives
import Foundation

/// Loads WireMock mapping files from a folder.
enum MappingLoader {
    /// Where `bodyFileName` is read from when the server has no mappings folder: `__files` under
    /// the working directory, as WireMock's default root has it; never the working directory
    /// itself, whose other files a mapping added through the admin API could otherwise serve.
    static var defaultFilesDirectory: URL {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("__files")
    }

    /// Where the mapping files and body files of `directory` are.
    static func layout(of directory: URL) -> (mappings: URL, files: URL) {
        let nested = directory.appendingPathComponent("mappings")
        var isDirectory: ObjCBool = false
        let hasNested =
            FileManager.default.fileExists(atPath: nested.path, isDirectory: &isDirectory)
            && isDirectory.boolValue
        return (hasNested ? nested : directory, directory.appendingPathComponent("__files"))
    }

    /// Every mapping in the `.json` files under `directory` (a file holds one mapping or `{"mappings": [...]}`).
    /// - Throws: ``ValuePattern/InvalidMapping`` naming the file and the problem.
    static func load(from directory: URL, globalTemplating: Bool = false) throws -> [StubMapping] {
        let root = layout(of: directory).mappings
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        else {
            throw ValuePattern.InvalidMapping(description: "cannot read the mappings folder \(root.path)")
        }
        var files: [URL] = []
        for case let url as URL in enumerator {
            if url.pathComponents.contains("__files") { continue }
            if url.pathExtension.lowercased() == "json" { files.append(url) }
        }
        var stubs: [StubMapping] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            let json: JSONValue
            do {
                json = try JSONValue.parse(try Data(contentsOf: file))
            } catch {
                throw ValuePattern.InvalidMapping(
                    description: "\(file.lastPathComponent): not valid JSON (\(error))")
            }
            stubs.append(
                contentsOf: try persisted(
                    in: json, location: file.lastPathComponent, globalTemplating: globalTemplating))
        }
        return stubs
    }

    private static func persisted(in json: JSONValue, location: String, globalTemplating: Bool) throws
        -> [StubMapping]
    {
        try mappings(in: json, location: location, globalTemplating: globalTemplating).map {
            var stub = $0
            stub.isPersisted = true
            return stub
        }
    }

    /// Writes each stub to `<id>.json` in the folder the loader reads mappings from.
    /// - Throws: the file system's error.
    static func save(_ stubs: [StubMapping], to directory: URL) throws {
        let folder = layout(of: directory).mappings
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for stub in stubs {
            let name = stub.id.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            try stub.source.serialized(pretty: true).write(
                to: folder.appendingPathComponent("\(name.isEmpty ? UUID().uuidString : name).json"),
                options: .atomic)
        }
    }

    /// The mappings in a document: a single mapping or `{"mappings": [...]}`.
    static func mappings(in json: JSONValue, location: String, globalTemplating: Bool = false) throws
        -> [StubMapping]
    {
        if case .array(let list)? = json["mappings"] {
            return try list.enumerated().map {
                try StubMapping(
                    json: $0.element, location: "\(location) mappings[\($0.offset)]",
                    globalTemplating: globalTemplating)
            }
        }
        return [try StubMapping(json: json, location: location, globalTemplating: globalTemplating)]
    }
}
