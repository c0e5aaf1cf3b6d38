/// The descriptions a declared API gives its error responses in its OpenAPI document; the generator
/// reads a document's against them.
package enum HTTPStatus {
    package static func reason(for status: Int) -> String {
        switch status {
        case 400: "Bad Request: a parameter or the body breaks the declaration"
        case 401: "Unauthorized: missing, invalid or expired token"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 415: "Unsupported Media Type: the body is not of a declared media type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        default: "Status \(status)"
        }
    }
}
