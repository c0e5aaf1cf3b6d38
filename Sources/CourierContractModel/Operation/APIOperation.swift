import Courier
import Foundation

/// One operation of an API, as its declaration states it: the id, method and path template,
/// the parameters, the request body, the success responses, and the error statuses it may
/// answer with.
///
/// You do not build one by hand: `Endpoint` declarations produce it (see `API`), and from
/// it come the request the client sends, the OpenAPI document, the `courier call` catalog,
/// and the mock server's routing and request validation.
public struct APIOperation: Sendable, Hashable, Identifiable {
    /// The operation id, `group.name`, such as `notes.list`.
    public var id: String
    /// The HTTP method.
    public var method: HTTPMethod
    /// The path template, with `{name}` for each path parameter, such as `/notes/{id}`.
    public var path: String
    /// One line on what the operation does.
    public var summary: String
    /// The ways the operation takes credentials: any one of them will do. Empty when it needs none.
    public var security: [SecurityScheme]
    /// The parameters, in declaration order.
    public var parameters: [Parameter]
    /// The request body, if any.
    public var body: Body?
    /// The success responses, each with its status and the model it carries: usually one; more
    /// when the operation answers success in several ways (`200` or `202`); none when its
    /// declaration states none (a document's operation without responses, or with only errors
    /// and redirects).
    public var successes: [ResponseSpec]
    /// The error statuses the operation may answer with, each with the error model.
    public var errors: [ResponseSpec]

    /// Creates an operation.
    package init(
        id: String, method: HTTPMethod, path: String, summary: String, security: [SecurityScheme],
        parameters: [Parameter] = [], body: Body? = nil, successes: [ResponseSpec],
        errors: [ResponseSpec] = []
    ) {
        self.id = id
        self.method = method
        self.path = path
        self.summary = summary
        self.security = security
        self.parameters = parameters
        self.body = body
        self.successes = successes
        self.errors = errors
    }

    /// Whether the operation needs credentials.
    public var requiresAuth: Bool { !security.isEmpty }

    /// The first success response: the one the response type decodes. An operation that states no
    /// success response gives a 200 with no body, the status a call of it is checked against.
    public var success: ResponseSpec {
        successes.first ?? ResponseSpec(200, summary, nil)
    }

    /// Every declared response: the successes, then the errors.
    public var responses: [ResponseSpec] { successes + errors }

    /// The status a successful call answers with: the first success response's.
    public var successStatus: Int { success.status }

    /// Every status that counts as success: the success responses', or 200 when none is stated.
    public var successStatuses: Set<Int> { Set(successes.isEmpty ? [200] : successes.map(\.status)) }

    /// The part of the id before the dot, such as `notes`.
    public var group: String { String(id.prefix { $0 != "." }) }
}

extension APIOperation {
    /// Where a parameter goes.
    public enum Location: String, Sendable, Hashable {
        case path
        case query
        case header
    }

    /// One declared parameter.
    public struct Parameter: Sendable, Hashable {
        /// The name on the wire.
        public var name: String
        /// Where it goes.
        public var location: Location
        /// What its value must look like.
        public var schema: Schema
        /// Whether a request must carry it (path parameters always must).
        public var required: Bool
        /// The value used when a call leaves it out, as text.
        public var defaultValue: String?
        /// One line on what it means.
        public var summary: String
        /// A value that works, for documentation and generated requests.
        public var example: String?
        /// The media type a value is written in (`application/json`) instead of by its location's
        /// style; nil for a styled value.
        public var contentType: String?

        /// Creates a parameter.
        package init(
            _ name: String, in location: Location, _ schema: Schema, required: Bool, _ summary: String,
            defaultValue: String? = nil, example: String? = nil, contentType: String? = nil
        ) {
            self.contentType = contentType
            self.name = name
            self.location = location
            self.schema = schema
            self.required = location == .path ? true : required
            self.defaultValue = defaultValue
            self.summary = summary
            self.example = example
        }
    }

    /// A request body.
    public enum Body: Sendable, Hashable {
        /// A JSON document of this schema.
        case json(Schema)
        /// Raw bytes of one of these media types; `base64`, the bytes written as base64 text (a
        /// schema's `contentEncoding: base64`, or `format: base64` in OpenAPI 3.0).
        case binary(contentTypes: [String], base64: Bool = false)
        /// A multipart form with one file field.
        case multipartFile(field: String, contentTypes: [String])
        /// An `application/x-www-form-urlencoded` form: the fields of this object schema.
        case form(Schema)
        /// A multipart form of the fields of this object schema (a file field is a `binary` string),
        /// with the media types each file field accepts, by field.
        case multipart(Schema, fileTypes: [String: [String]])

        /// The media types the body may be sent as.
        public var contentTypes: [String] {
            switch self {
            case .json: ["application/json"]
            case .binary(let types, _): types
            case .multipartFile, .multipart: ["multipart/form-data"]
            case .form: ["application/x-www-form-urlencoded"]
            }
        }
    }

    /// One response an operation may give.
    public struct ResponseSpec: Sendable, Hashable {
        /// The status code.
        public var status: Int
        /// One line on when it is given.
        public var summary: String
        /// The body's schema; nil for none.
        public var schema: Schema?
        /// The body's media type, such as `application/json` or `text/plain`.
        public var contentType: String

        /// Creates a response description.
        package init(
            _ status: Int, _ summary: String, _ schema: Schema?, contentType: String = "application/json"
        ) {
            self.status = status
            self.summary = summary
            self.schema = schema
            self.contentType = contentType
        }
    }
}
