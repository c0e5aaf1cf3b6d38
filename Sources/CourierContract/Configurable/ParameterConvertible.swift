import Courier
import Foundation

/// Something that puts parameters into a request: query items, a JSON body, a form,
/// or a multipart body.
///
/// Endpoints return one from `APIConfigurable.parameters`. Courier provides
/// `NoParameters`, `URLQuery`, `JSONBody`, `FormBody`, `MultipartForm` and
/// `CombinedParameters`; all are `Sendable` and typed, with no `[String: Any]`.
public protocol ParameterConvertible: Sendable {
    /// Encodes the parameters into `request`: appends query items, or sets the body and
    /// its `Content-Type`.
    /// - Throws: `CourierError` with code `.invalidParameters` when a value cannot be encoded.
    func encode(into request: inout TransportRequest) throws
}

/// No parameters at all.
public struct NoParameters: ParameterConvertible {
    /// Creates an empty parameter set.
    public init() {}
    public func encode(into request: inout TransportRequest) throws {}
}
