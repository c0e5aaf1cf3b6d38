import Courier

/// Several parameter sets applied in order, such as a query plus a JSON body.
///
/// ```swift
/// CombinedParameters(URLQuery(["draft": true]), JSONBody(NewNote(text: "Buy milk")))
/// ```
/// At most one of them may set the body; a second one fails with `.invalidParameters`.
public struct CombinedParameters: ParameterConvertible {
    /// The parameter sets, applied in order.
    package var parts: [any ParameterConvertible]

    /// Combines parameter sets.
    public init(_ parts: any ParameterConvertible...) { self.parts = parts }

    /// Combines parameter sets from an array.
    package init(_ parts: [any ParameterConvertible]) { self.parts = parts }

    /// Applies every part in order.
    /// - Throws: the first part's `CourierError`.
    public func encode(into request: inout TransportRequest) throws {
        for part in parts { try part.encode(into: &request) }
    }
}
