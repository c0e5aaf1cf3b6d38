import Courier
import CourierContractModel
import Foundation

/// An `application/x-www-form-urlencoded` request body: the model's properties are the fields, a list
/// as repeated fields (`tags=a&tags=b`, OpenAPI's default for forms).
///
/// ```swift
/// import CourierContract
///
/// struct Contact: Codable, Sendable {
///     var email: String
///     var tags: [String]
/// }
///
/// enum ContactAPI: API {
///     static func send(_ contact: Contact) -> Endpoint<EmptyResponse> {
///         endpoint(.post, "/contact", "Send a contact form", status: 204) { Form(contact) }
///     }
///     static var samples: [any EndpointDescribing] { [send(Contact(email: "a@example.com", tags: []))] }
/// }
/// ```
public struct Form<Model: Codable & Sendable>: EndpointComponent {
    public let part: EndpointPart

    /// Declares a form body.
    /// - Parameter model: this call's fields.
    public init(_ model: Model) {
        part = EndpointPart(kind: .body({ .form(.of(Model.self)) }, FormBody(model, arrays: .repeatedKeys)))
    }
}

/// A `multipart/form-data` request body declared field by field: values and files.
///
/// ```swift
/// import CourierContract
///
/// enum PhotosAPI: API {
///     static func send(caption: String, photo: URL) -> Endpoint<EmptyResponse> {
///         endpoint(.post, "/photos", "Send a photo", status: 204) {
///             Multipart(.value("caption", caption), .file("photo", photo, contentType: "image/png"))
///         }
///     }
///     static var samples: [any EndpointDescribing] {
///         [send(caption: "Sunset", photo: URL(fileURLWithPath: "sunset.png"))]
///     }
/// }
/// ```
public struct Multipart: EndpointComponent {
    public let part: EndpointPart

    /// Declares a multipart form.
    /// - Parameter fields: the fields, in the order they are sent.
    public init(_ fields: MultipartField...) {
        var parts: [MultipartForm.Part] = []
        var failure: CourierError?
        for field in fields {
            switch field.content {
            case .success(let part?): parts.append(part)
            case .success(nil): break
            case .failure(let error): failure = failure ?? error
            }
        }
        let body: any ParameterConvertible =
            failure.map { FailedBody(error: $0) } ?? MultipartForm(parts: parts)
        // The schema is derived when the operation is described, once, not for every call.
        part = EndpointPart(
            kind: .body(
                {
                    let properties = fields.map { Schema.Property($0.name, $0.schema()) }
                    var fileTypes: [String: [String]] = [:]
                    for field in fields { fileTypes[field.name] = field.accepted }
                    return .multipart(
                        .object(properties, required: fields.filter(\.required).map(\.name)),
                        fileTypes: fileTypes)
                }, body))
    }
}

/// One field of a `Multipart` form: a value (its text, or JSON for a list or an object) or a file.
public struct MultipartField: Sendable {
    let name: String
    let required: Bool
    /// The media types a file field accepts; nil for a value.
    let accepted: [String]?
    let schema: @Sendable () -> Schema
    /// The part this call sends; nil for an optional value left out.
    let content: Result<MultipartForm.Part?, CourierError>

    /// A required value field.
    /// - Parameters:
    ///   - name: the field's name.
    ///   - value: this call's value.
    /// - Returns: the field.
    public static func value<Value: Codable & Sendable>(_ name: String, _ value: Value) -> MultipartField {
        MultipartField(
            name: name, required: true, accepted: nil, schema: { .of(Value.self) },
            content: part(name, value).map { $0 })
    }

    /// An optional value field, left out of the form when nil.
    /// - Parameters:
    ///   - name: the field's name.
    ///   - value: this call's value, if any.
    /// - Returns: the field.
    public static func value<Value: Codable & Sendable>(_ name: String, _ value: Value?) -> MultipartField {
        MultipartField(
            name: name, required: false, accepted: nil, schema: { .of(Value.self) },
            content: value.map { part(name, $0).map { $0 } } ?? .success(nil))
    }

    /// A file field, streamed from disk when the body is sent.
    /// - Parameters:
    ///   - name: the field's name.
    ///   - file: the file to send.
    ///   - contentType: this file's media type.
    ///   - accepted: every media type the field accepts; empty for any.
    /// - Returns: the field.
    public static func file(_ name: String, _ file: URL, contentType: String, accepted: [String] = [])
        -> MultipartField
    {
        MultipartField(
            name: name, required: true, accepted: accepted,
            schema: { .string(Schema.StringRules(format: "binary")) },
            content: .success(
                .init(
                    name: name, filename: file.lastPathComponent, contentType: contentType,
                    content: .file(file))))
    }

    /// A value's part: a scalar as its text, anything else as JSON.
    private static func part(_ name: String, _ value: some Encodable & Sendable) -> Result<
        MultipartForm.Part, CourierError
    > {
        do {
            if let text = try ParameterValue(encoding: value).scalarText {
                return .success(.init(name: name, content: .data(Data(text.utf8))))
            }
            return .success(
                .init(
                    name: name, contentType: "application/json",
                    content: .data(try JSONEncoder.courier.encode(value))))
        } catch {
            return .failure(
                CourierError(
                    .invalidParameters,
                    "multipart field \(name.debugDescription) cannot be encoded: \(error)",
                    underlying: error))
        }
    }
}

/// A body whose value failed to encode where it was declared: building the request fails with that
/// error, so that nothing is sent in its place.
struct FailedBody: ParameterConvertible {
    let error: CourierError

    func encode(into request: inout TransportRequest) throws { throw error }
}
