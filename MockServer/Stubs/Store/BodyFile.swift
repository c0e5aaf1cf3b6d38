import Foundation

/// A response's `bodyFileName`, found in the files folder (`__files`).
///
/// A literal name is checked when its mapping is loaded, so that a missing file is a 422 or a
/// start-up error like any other mapping error, not a 404 at request time. A name with template
/// tags is known only per request, and checked then.
enum BodyFile {
    /// Why a name gives no file to serve.
    enum Problem: Error, Equatable, CustomStringConvertible {
        /// Empty, or an absolute path.
        case notRelative(String)
        /// `..`, or a link, leads out of the folder.
        case outside(String)
        /// No file by that name.
        case missing(String)
        /// A folder or another thing that is not a regular file.
        case notAFile(String)
        /// A file the server may not read.
        case unreadable(String)

        var description: String {
            switch self {
            case .notRelative(let name):
                "\(name.debugDescription) is not a file name relative to the files folder"
            case .outside(let name): "\(name.debugDescription) is outside the files folder"
            case .missing(let name): "no body file \(name) in the files folder"
            case .notAFile(let name): "\(name) is not a regular file"
            case .unreadable(let name): "\(name) cannot be read"
            }
        }
    }

    /// Refuses what no folder could serve: an empty or absolute name, or one with a `..` segment.
    /// - Throws: ``Problem``.
    static func checkSyntax(_ name: String) throws(Problem) {
        guard !name.isEmpty, !name.hasPrefix("/") else { throw .notRelative(name) }
        if name.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
            throw .outside(name)
        }
    }

    /// The regular file `name` names inside `directory`, links resolved.
    /// - Throws: ``Problem`` when the name is not relative, leads out of the folder (by `..` or a
    ///   link), or names no regular file.
    static func resolve(_ name: String, in directory: URL) throws(Problem) -> URL {
        try checkSyntax(name)
        let root = directory.resolvingSymlinksInPath().standardizedFileURL.path
        let file = directory.appendingPathComponent(name).resolvingSymlinksInPath().standardizedFileURL
        guard file.path.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { throw .outside(name) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
            throw .missing(name)
        }
        guard !isDirectory.boolValue else { throw .notAFile(name) }
        guard FileManager.default.isReadableFile(atPath: file.path) else { throw .unreadable(name) }
        return file
    }
}
