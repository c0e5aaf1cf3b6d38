import Courier
import CourierPrimitives
import Foundation

extension APIOperation {
    /// The media type of a `Content-Type` value, lowercased, without parameters.
    package static func mediaType(_ contentType: String) -> String {
        String(contentType.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased()
    }
}
