import Courier
import CourierContractModel
import Foundation

/// One parameter or the body of an endpoint declaration, with this call's value.
///
/// What only describes the operation (a schema, say) is kept as a closure and made when the
/// operation is first described, never on each call.
public struct EndpointPart: Sendable {
    enum Kind: Sendable {
        /// A parameter and this call's value: nil when absent, or why it could not be encoded
        /// (reported when the request is built, so that nothing is sent without it).
        case parameter(DeclaredParameter, value: Result<ParameterValue?, CourierError>)
        case body(@Sendable () -> APIOperation.Body, any ParameterConvertible)
    }

    let kind: Kind
}

/// A parameter as declared, with its schema made only when asked for.
struct DeclaredParameter: Sendable {
    var name: String
    var location: APIOperation.Location
    /// The schema written in the declaration, if any.
    var schema: @Sendable () -> Schema?
    /// The value's type, whose schema is derived when none is written.
    // nonisolated(unsafe): a metatype is an immutable reference to type metadata, safe to share.
    nonisolated(unsafe) var valueType: any Decodable.Type
    var summary: String
    var defaultValue: ParameterValue? = nil
    /// `application/json` for a value sent as JSON text.
    var contentType: String? = nil

    /// The operation's description of this parameter: a path parameter is required, another one
    /// when its value's type is not optional.
    var described: APIOperation.Parameter {
        .init(
            name, in: location, schema() ?? .of(valueType), required: !(valueType is any OptionalType.Type),
            summary, defaultValue: defaultValue?.scalarText, contentType: contentType)
    }
}

/// Something that can stand in an endpoint declaration: `Path`, `Query`, `Header`, `Body`,
/// `FileUpload`, `MultipartFile`.
public protocol EndpointComponent: Sendable {
    /// The declared part and its value.
    var part: EndpointPart { get }
}

/// Collects the parts of an endpoint declaration.
@resultBuilder
public enum EndpointBuilder {
    public static func buildExpression(_ component: some EndpointComponent) -> [EndpointPart] {
        [component.part]
    }
    public static func buildBlock(_ parts: [EndpointPart]...) -> [EndpointPart] { parts.flatMap { $0 } }
}

/// A path parameter: fills `{name}` in the path template, percent-encoded; a value that would
/// walk the path (`..`, a `/`, a control character) fails the request with `.invalidURL`, and one
/// that cannot be encoded with `.invalidParameters`.
public struct Path<Value: Codable & Sendable>: EndpointComponent {
    public let part: EndpointPart

    /// Declares a path parameter.
    /// - Parameters:
    ///   - name: the name in the template.
    ///   - value: this call's value.
    ///   - schema: what values must look like; default derived from `Value`.
    ///   - summary: one line on what it means.
    public init(
        _ name: String, _ value: Value, _ schema: @autoclosure @escaping @Sendable () -> Schema? = nil,
        _ summary: String = ""
    ) {
        part = EndpointPart(
            kind: .parameter(
                DeclaredParameter(
                    name: name, location: .path, schema: schema, valueType: Value.self,
                    summary: summary),
                value: encoded(value)))
    }
    /// Declares a path parameter whose schema is derived from `Value`.
    public init(_ name: String, _ value: Value, _ summary: String) {
        self.init(name, value, nil, summary)
    }

    /// Declares a path parameter whose value is sent as JSON text (`content: application/json`).
    /// - Parameters:
    ///   - name: the name in the template.
    ///   - value: this call's value.
    ///   - summary: one line on what it means.
    public init(_ name: String, json value: Value, _ summary: String = "") {
        part = .jsonParameter(name, in: .path, value, summary)
    }
}

/// A query parameter: required when its value's type is not optional. A nil value sends nothing:
/// a declared default is the server's to apply, and is documented, not sent.
public struct Query<Value: Codable & Sendable>: EndpointComponent {
    public let part: EndpointPart

    /// Declares a query parameter.
    /// - Parameters:
    ///   - name: the name on the wire.
    ///   - value: this call's value; an optional type makes the parameter optional, and nil
    ///     sends nothing. A value that cannot be encoded fails the call with `.invalidParameters`.
    ///   - schema: what values must look like; default derived from `Value`.
    ///   - defaultValue: the value the server gives a call that leaves it out: documented (in the
    ///     operation and its OpenAPI document), never sent.
    ///   - summary: one line on what it means.
    public init(
        _ name: String, _ value: Value, _ schema: @autoclosure @escaping @Sendable () -> Schema? = nil,
        default defaultValue: Value? = nil, _ summary: String = ""
    ) {
        let declaredDefault = defaultValue.map(encoded) ?? .success(nil)
        var value = encoded(value)
        // A default that cannot be encoded cannot be documented: every call fails, saying why.
        if case .failure(let error) = declaredDefault { value = .failure(error) }
        part = EndpointPart(
            kind: .parameter(
                DeclaredParameter(
                    name: name, location: .query, schema: schema, valueType: Value.self, summary: summary,
                    defaultValue: try? declaredDefault.get()),  // allowed: fails each call
                value: value))
    }

    /// Declares a query parameter whose schema is derived from `Value`.
    public init(_ name: String, _ value: Value, default defaultValue: Value? = nil, _ summary: String) {
        self.init(name, value, nil, default: defaultValue, summary)
    }

    /// Declares a query parameter whose value is sent as JSON text (`content: application/json`).
    /// - Parameters:
    ///   - name: the name on the wire.
    ///   - value: this call's value; an optional type makes the parameter optional, and nil sends
    ///     nothing.
    ///   - summary: one line on what it means.
    public init(_ name: String, json value: Value, _ summary: String = "") {
        part = .jsonParameter(name, in: .query, value, summary)
    }
}

/// A header parameter: required when its value's type is not optional; nil sends nothing, and a
/// value that cannot be encoded fails the call with `.invalidParameters`.
public struct Header<Value: Codable & Sendable>: EndpointComponent {
    public let part: EndpointPart

    /// Declares a header.
    public init(
        _ name: String, _ value: Value, _ schema: @autoclosure @escaping @Sendable () -> Schema? = nil,
        _ summary: String = ""
    ) {
        part = EndpointPart(
            kind: .parameter(
                DeclaredParameter(
                    name: name, location: .header, schema: schema, valueType: Value.self, summary: summary),
                value: encoded(value)))
    }

    /// Declares a header whose schema is derived from `Value`.
    public init(_ name: String, _ value: Value, _ summary: String) {
        self.init(name, value, nil, summary)
    }

    /// Declares a header whose value is sent as JSON text (`content: application/json`).
    /// - Parameters:
    ///   - name: the field's name.
    ///   - value: this call's value; an optional type makes the header optional, and nil sends
    ///     nothing.
    ///   - summary: one line on what it means.
    public init(_ name: String, json value: Value, _ summary: String = "") {
        part = .jsonParameter(name, in: .header, value, summary)
    }
}

/// Marks `Optional`, so a declaration can tell an optional parameter from a required one.
protocol OptionalType {
    /// Whether this is `nil`.
    var isNone: Bool { get }
}

extension Optional: OptionalType {
    var isNone: Bool { self == nil }
}

/// The value as a parameter: nil for an absent one (nil, or a value that encodes to null), or why it
/// cannot be encoded.
private func encoded(_ value: some Encodable) -> Result<ParameterValue?, CourierError> {
    do {
        let encoded = try ParameterValueEncoder.shared.encode(value)
        return .success(encoded == .null ? nil : encoded)
    } catch let error as CourierError {
        return .failure(error)
    } catch {
        return .failure(CourierError(.invalidParameters, "\(error)", underlying: error))
    }
}

extension EndpointPart {
    /// A parameter described by JSON `content`: its value is sent as JSON text.
    fileprivate static func jsonParameter<Value: Codable & Sendable>(
        _ name: String, in location: APIOperation.Location, _ value: Value, _ summary: String
    ) -> EndpointPart {
        EndpointPart(
            kind: .parameter(
                DeclaredParameter(
                    name: name, location: location, schema: { nil }, valueType: Value.self, summary: summary,
                    contentType: "application/json"),
                value: jsonText(value)))
    }
}

/// The value as JSON text: nil for an absent one, or why it cannot be encoded.
private func jsonText(_ value: some Encodable) -> Result<ParameterValue?, CourierError> {
    if let optional = value as? any OptionalType, optional.isNone { return .success(nil) }
    do {
        let encoder = JSONEncoder.courier
        encoder.outputFormatting.insert(.sortedKeys)
        return .success(.string(String(decoding: try encoder.encode(value), as: UTF8.self)))
    } catch {
        return .failure(
            CourierError(.invalidParameters, "cannot be written as JSON: \(error)", underlying: error))
    }
}

/// A JSON request body; its schema is derived from the model.
public struct Body<Model: Codable & Sendable>: EndpointComponent {
    public let part: EndpointPart

    /// Declares a JSON body.
    /// - Parameters:
    ///   - model: this call's body.
    ///   - encoder: the JSON encoder; default `JSONEncoder.courier`.
    public init(_ model: Model, encoder: JSONEncoder = .courier) {
        part = EndpointPart(kind: .body({ .json(.of(Model.self)) }, JSONBody(model, encoder: encoder)))
    }
}

/// A request body streamed from a file, sent as one of the declared media types.
public struct FileUpload: EndpointComponent {
    public let part: EndpointPart

    /// Declares a binary body.
    /// - Parameters:
    ///   - file: the file to send; it is read as it is sent.
    ///   - contentType: this file's media type.
    ///   - accepted: every media type the operation accepts (documented and validated).
    ///   - base64: whether the body is the file's bytes as base64 text, as an operation whose schema
    ///     says `contentEncoding: base64` (`format: base64` in OpenAPI 3.0) takes them. The file is
    ///     then read whole when the request is built.
    public init(_ file: URL, contentType: String, accepted: [String], base64: Bool = false) {
        part = EndpointPart(
            kind: .body(
                { .binary(contentTypes: accepted, base64: base64) },
                FileBody(file, contentType: contentType, base64: base64)))
    }
}

/// A multipart form with one file field, streamed from disk.
public struct MultipartFile: EndpointComponent {
    public let part: EndpointPart

    /// Declares a multipart file upload.
    /// - Parameters:
    ///   - field: the form field's name.
    ///   - file: the file to send.
    ///   - contentType: this file's media type.
    ///   - accepted: every media type the field accepts.
    public init(_ field: String, _ file: URL, contentType: String, accepted: [String]) {
        let form = MultipartForm(parts: [
            .init(
                name: field, filename: file.lastPathComponent, contentType: contentType, content: .file(file))
        ])
        part = EndpointPart(kind: .body({ .multipartFile(field: field, contentTypes: accepted) }, form))
    }
}

/// A body read from a file as it is sent, with its content type.
struct FileBody: ParameterConvertible {
    var file: URL
    var contentType: String
    /// Whether the bytes are sent as base64 text.
    var base64: Bool

    init(_ file: URL, contentType: String, base64: Bool = false) {
        self.file = file
        self.contentType = contentType
        self.base64 = base64
    }

    func encode(into request: inout TransportRequest) throws {
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw CourierError(.invalidBody, "cannot read \(file.path)")
        }
        if base64 {
            do {
                request.body = .data(try Data(contentsOf: file).base64EncodedData())
            } catch {
                throw CourierError(.invalidBody, "cannot read \(file.path)", underlying: error)
            }
        } else {
            request.body = .file(file)
        }
        request.headers.replaceOrAdd(name: "Content-Type", value: contentType)
    }
}
