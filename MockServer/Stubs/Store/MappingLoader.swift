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
    /// - Throws: ``ValuePattern/InvalidMapping`` naming the file and the problem (a `bodyFileName`
    ///   that names no file in the files folder included).
    static func load(from directory: URL, globalTemplating: Bool = false) throws -> [StubMapping] {
        let (root, filesDirectory) = layout(of: directory)
        // Foundation on Linux enumerates a missing folder as an empty one: a mistyped path would
        // start a server with no stubs and no word of why.
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            throw ValuePattern.InvalidMapping(description: "there is no mappings folder at \(directory.path)")
        }
        guard isDirectory.boolValue else {
            throw ValuePattern.InvalidMapping(
                description: "\(directory.path) is a file, not a mappings folder")
        }
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
            let name = relativePath(of: file, in: directory)
            let data: Data
            do {
                data = try Data(contentsOf: file)
            } catch {
                throw ValuePattern.InvalidMapping(description: "\(name): cannot be read (\(error))")
            }
            let json: JSONValue
            do {
                json = try JSONValue.parseStrictly(data)
            } catch let error as JSONSyntaxError {
                throw ValuePattern.InvalidMapping(description: "\(name): \(error)")
            } catch {
                throw ValuePattern.InvalidMapping(description: "\(name): not valid JSON (\(error))")
            }
            let isList: Bool = if case .array? = json["mappings"] { true } else { false }
            stubs.append(
                contentsOf: try persisted(
                    in: json, location: name, globalTemplating: globalTemplating,
                    filesDirectory: filesDirectory
                )
                .enumerated().map { index, stub in
                    var stub = stub
                    stub.sourceFile = file
                    stub.origin = isList ? "\(name) mappings[\(index)]" : name
                    return stub
                })
        }
        return stubs
    }

    /// `file`'s path under `directory` (`mappings/users.json`), or its name when it is not under it.
    static func relativePath(of file: URL, in directory: URL) -> String {
        let base = directory.standardizedFileURL.path
        let path = file.standardizedFileURL.path
        guard path.hasPrefix(base + "/") else { return file.lastPathComponent }
        return String(path.dropFirst(base.count + 1))
    }

    private static func persisted(
        in json: JSONValue, location: String, globalTemplating: Bool, filesDirectory: URL
    ) throws -> [StubMapping] {
        try mappings(
            in: json, location: location, globalTemplating: globalTemplating, filesDirectory: filesDirectory
        ).map {
            var stub = $0
            stub.isPersisted = true
            return stub
        }
    }

    /// Writes `unsaved` to the folder the loader reads mappings from: a stub that came from a file
    /// goes back into that file (rewritten with every stub of `all` that came from it, so that no
    /// older version of an edited stub is left to win at the next start); another goes to a file of
    /// its own, named after its id (percent-encoded, so two ids never share a file).
    /// - Returns: the file each saved stub is now in, by id.
    /// - Throws: the file system's error.
    static func save(_ unsaved: [StubMapping], all: [StubMapping], to directory: URL) throws -> [String: URL]
    {
        let folder = layout(of: directory).mappings
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var saved: [String: URL] = [:]
        for file in Set(unsaved.compactMap(\.sourceFile)) {
            let members = all.filter { $0.sourceFile == file }
            let document: JSONValue =
                members.count == 1 ? members[0].source : .object(["mappings": .array(members.map(\.source))])
            try document.serialized(pretty: true).write(to: file, options: .atomic)
            for stub in members { saved[stub.id] = file }
        }
        for stub in unsaved where stub.sourceFile == nil {
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
            let name = stub.id.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
            let file = folder.appendingPathComponent("\(name.isEmpty ? UUID().uuidString : name).json")
            try stub.source.serialized(pretty: true).write(to: file, options: .atomic)
            saved[stub.id] = file
        }
        return saved
    }

    /// The mappings in a document: a single mapping or `{"mappings": [...]}`.
    /// - Parameter filesDirectory: the files folder each literal `bodyFileName` must name a file in;
    ///   nil checks the names' form only.
    static func mappings(
        in json: JSONValue, location: String, globalTemplating: Bool = false, filesDirectory: URL? = nil
    ) throws -> [StubMapping] {
        if case .array(let list)? = json["mappings"] {
            return try list.enumerated().map {
                try StubMapping(
                    json: $0.element, location: "\(location) mappings[\($0.offset)]",
                    globalTemplating: globalTemplating, filesDirectory: filesDirectory)
            }
        }
        return [
            try StubMapping(
                json: json, location: location, globalTemplating: globalTemplating,
                filesDirectory: filesDirectory)
        ]
    }
}
