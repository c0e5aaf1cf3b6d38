import Foundation
import MockServer
import Testing

/// A temporary mappings root (`mappings/`, `__files/`) holding the given files; removed by `remove()`.
struct MappingFolder {
    var root: URL

    /// - Parameter files: path under the root (`mappings/users.json`, `__files/a.json`) → contents.
    init(_ files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("mappings-\(UUID().uuidString)")
        for folder in ["mappings", "__files"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for (path, text) in files {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
    }

    var configuration: MockServerConfiguration {
        var configuration = MockServerConfiguration()
        configuration.mappingsDirectory = root
        return configuration
    }

    /// The message of the error that stops a server on this folder from starting.
    func startFailure() -> String {
        let server = MockServer(configuration: configuration)
        let error = #expect(throws: MockServerError.self) { try server.start() }
        server.shutdown()
        return error?.message ?? ""
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
