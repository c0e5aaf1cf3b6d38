import Courier
import Foundation

/// A value that can be an `APIConfigurable`'s `path`: `EndpointPath`, or a `String` taken as it is.
public protocol EndpointPathConvertible {
    /// The path.
    var endpointPath: EndpointPath { get }
}

extension EndpointPath: EndpointPathConvertible {
    public var endpointPath: EndpointPath { self }
}

extension String: EndpointPathConvertible {
    public var endpointPath: EndpointPath { EndpointPath(self) }
}

/// A value that can be an `APIConfigurable`'s `headers`: `HTTPHeaders`, `[String: String]`, or
/// either of them optional.
public protocol HeaderFieldsConvertible {
    /// The header fields.
    var headerFields: HTTPHeaders { get }
}

extension HTTPHeaders: HeaderFieldsConvertible {
    public var headerFields: HTTPHeaders { self }
}

extension Dictionary: HeaderFieldsConvertible where Key == String, Value == String {
    /// The fields, sorted by name so that the same dictionary always gives the same request.
    public var headerFields: HTTPHeaders {
        HTTPHeaders(sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}

extension Optional: HeaderFieldsConvertible where Wrapped: HeaderFieldsConvertible {
    public var headerFields: HTTPHeaders { self?.headerFields ?? HTTPHeaders() }
}

/// A value that can be an `APIConfigurable`'s `parameters` as a dictionary, such as
/// `[String: Any]`: a JSON body, or the query for `GET`, `HEAD` and `DELETE`.
///
/// Values may be strings, numbers, booleans, `nil`, arrays and dictionaries of those,
/// `ParameterValue`s, or any `Encodable` model; another value fails the request with
/// `.invalidParameters`, naming its key.
public protocol ParameterDictionary {
    /// The parameters as typed values.
    /// - Throws: `CourierError` with code `.invalidParameters` for a value of no known kind.
    func parameterValues() throws -> [String: ParameterValue]
}

extension Dictionary: ParameterDictionary where Key == String {
    public func parameterValues() throws -> [String: ParameterValue] {
        var values: [String: ParameterValue] = [:]
        for (key, value) in self { values[key] = try ParameterValue(loose: value, at: key) }
        return values
    }
}

extension Optional: ParameterDictionary where Wrapped: ParameterDictionary {
    public func parameterValues() throws -> [String: ParameterValue] {
        try self?.parameterValues() ?? [:]
    }
}

/// Parameters from a dictionary: the query of a `GET`, `HEAD` or `DELETE`, else a JSON body.
struct DictionaryParameters: ParameterConvertible {
    /// The values by name.
    let values: [String: ParameterValue]

    init(_ values: [String: ParameterValue]) { self.values = values }

    func encode(into request: inout TransportRequest) throws {
        switch request.method {
        case .get, .head, .delete: try URLQuery(values).encode(into: &request)
        default: try JSONBody(ParameterValue.object(values)).encode(into: &request)
        }
    }
}

extension ParameterValue {
    /// A value of a loosely typed dictionary (`[String: Any]`) as a typed one.
    /// - Throws: `CourierError` with code `.invalidParameters`, naming `path`, for a value of no
    ///   known kind.
    init(loose value: Any, at path: String) throws {
        switch value {
        case let value as ParameterValue: self = value
        case let optional as any OptionalType where optional.isNone: self = .null
        case let string as String: self = .string(string)
        case let bool as Bool: self = .bool(bool)
        case let int as Int: self = .int(int)
        case let double as Double: self = .double(double)
        case let array as [Any]:
            self = .array(
                try array.enumerated().map { try ParameterValue(loose: $1, at: "\(path)[\($0)]") })
        case let object as [String: Any]:
            var values: [String: ParameterValue] = [:]
            for (key, member) in object {
                values[key] = try ParameterValue(loose: member, at: "\(path).\(key)")
            }
            self = .object(values)
        case let model as any Encodable: self = try ParameterValueEncoder.shared.encode(model)
        default:
            throw CourierError(
                .invalidParameters, "parameter \(path) is a \(type(of: value)), which is not a JSON value")
        }
    }
}
