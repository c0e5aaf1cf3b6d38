import Courier
import CourierContractModel
import CourierPrimitives
import Foundation

/// What a declaring function states about its operation, apart from the parameters: kept by
/// every call, and turned into an `APIOperation` once per operation.
struct EndpointDeclaration: Sendable, Hashable {
    /// The declaring API, which gives the id's group and the error model.
    let api: any API.Type
    /// The declaring function's name as the compiler gives it, such as `note(id:)`.
    let function: String
    let method: HTTPMethod
    let path: String
    let summary: String
    /// The success status the response type decodes; nil for none.
    let status: Int?
    /// Further success statuses, answered with the same body. Kept apart from `status` so that a
    /// call, which keeps its declaration, makes no list of them.
    let otherStatuses: [Int]
    let security: [SecurityScheme]
    let contentType: String
    let errors: [Int]
    /// Error statuses answered with no body: declared without the API's error schema.
    let emptyErrors: [Int]
    /// Error statuses whose body has its own model, not the API's error schema; evaluated when the
    /// operation is described.
    let errorSchemas: @Sendable () -> [Int: Schema]

    /// The operation id: `group.name`, where `name` is the declaring function's name.
    var id: String { "\(api.group).\(function.prefix { $0 != "(" })" }

    /// The operation this declaration and these parts describe.
    func describe(parts: [EndpointPart], responseSchema: Schema?) -> APIOperation {
        var parameters: [APIOperation.Parameter] = []
        var body: APIOperation.Body?
        for part in parts {
            switch part.kind {
            case .parameter(let parameter, _): parameters.append(parameter.described)
            case .body(let declared, _): body = declared()
            }
        }
        let hasInput = !parameters.isEmpty || body != nil
        // A body of another media type is refused with 415, so every operation with a body declares it.
        let auth = !security.isEmpty
        var errorStatuses =
            api.declaresRefusals
            ? (hasInput ? [400] : []) + (auth ? [401] : []) + (body != nil ? [415] : []) + errors
                + emptyErrors
            : errors + emptyErrors
        errorStatuses = errorStatuses.reduce(into: []) { unique, status in
            if !unique.contains(status) { unique.append(status) }
        }
        let errorSchema = api.errorSchema
        let errorContentType = api.errorContentType
        let ownSchemas = errorSchemas()
        return APIOperation(
            id: id, method: method, path: path, summary: summary, security: security, parameters: parameters,
            body: body,
            successes: (status.map { [$0] + otherStatuses } ?? []).map {
                .init($0, summary, responseSchema, contentType: contentType)
            },
            errors: errorStatuses.map {
                .init(
                    $0, HTTPStatus.reason(for: $0),
                    emptyErrors.contains($0) ? nil : ownSchemas[$0] ?? errorSchema,
                    contentType: errorContentType)
            })
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.api == rhs.api && lhs.function == rhs.function && lhs.method == rhs.method && lhs.path == rhs.path
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(api))
        hasher.combine(function)
        hasher.combine(path)
    }
}

/// Every operation described so far, by declaration and response type: a description is made
/// the first time a contract, the OpenAPI writer or the mock server asks for it.
final class OperationDescriptions: Sendable {
    struct Key: Hashable, Sendable {
        var declaration: EndpointDeclaration
        var response: ObjectIdentifier
    }

    static let shared = OperationDescriptions()

    private let described = Locked<[Key: APIOperation]>([:])

    /// The operation for `key`, described by `describe` if it has not been yet.
    func operation(for key: Key, describe: () -> APIOperation) -> APIOperation {
        if let known = described.withLock({ $0[key] }) { return known }
        let operation = describe()
        return described.withLock { known in
            if let first = known[key] { return first }
            known[key] = operation
            return operation
        }
    }
}
