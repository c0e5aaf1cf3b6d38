import CourierOpenAPI
import Foundation

/// Reads the OpenAPI document at `path` for a command, printing each warning (what was read although
/// the specification does not allow it) on standard error with its pointer.
/// - Parameters:
///   - path: the document.
///   - command: the command's name in messages, such as `courier generate`.
/// - Returns: the document.
/// - Throws: ``OpenAPIDocumentError`` when the document cannot be read.
func readDocument(_ path: String, for command: String) throws(OpenAPIDocumentError) -> OpenAPIDocument {
    let document = try OpenAPIDocument.load(from: URL(fileURLWithPath: path))
    for warning in document.warnings {
        // A warning in a referenced file names that file itself.
        standardError("\(command): warning: \(warning.file == nil ? path : "")\(warning)\n")
    }
    return document
}
