import Foundation

/// A new, empty temporary directory, removed with everything in it when the value goes
/// away.
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// let file = directory.url.appendingPathComponent("body.bin")
/// ```
public struct TemporaryDirectory: ~Copyable {
    /// The directory.
    public let url: URL

    /// Creates the directory under the system's temporary folder.
    /// - Parameter prefix: the start of its name.
    /// - Throws: the file system's error when it cannot be created.
    public init(prefix: String = "courier-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
