import Courier

/// One operation of the social API: what a request must look like and what comes back.
public struct APIOperation: Sendable, Hashable, Identifiable {
    /// The operation id, `group.case`, such as `posts.page`; `courier call` uses it.
    public var id: String
    /// The HTTP method.
    public var method: HTTPMethod
    /// The path template, such as `/posts/{postId}`.
    public var path: String
    /// A one-line summary.
    public var summary: String
    /// Whether a bearer token is required (401 without one).
    public var requiresAuth: Bool
    /// The path, query and header parameters.
    public var parameters: [Parameter]
    /// The request body, if any.
    public var body: Body?
    /// The documented responses, success first.
    public var responses: [ResponseSpec]

    /// Creates an operation.
    public init(
        id: String, method: HTTPMethod, path: String, summary: String, requiresAuth: Bool,
        parameters: [Parameter] = [], body: Body? = nil, responses: [ResponseSpec]
    ) {
        self.id = id
        self.method = method
        self.path = path
        self.summary = summary
        self.requiresAuth = requiresAuth
        self.parameters = parameters
        self.body = body
        self.responses = responses
    }

    /// The status of the first (success) response.
    public var successStatus: Int { responses.first?.status ?? 200 }

    /// The group part of `id` (`posts` in `posts.page`).
    public var group: String { String(id.prefix { $0 != "." }) }

    /// The path split into segments, template variables included as `{name}`.
    public var pathSegments: [Substring] { path.split(separator: "/") }
}

extension APIOperation {
    /// Where a parameter travels.
    public enum Location: String, Sendable, Hashable {
        case path
        case query
        case header
    }

    /// A path, query or header parameter.
    public struct Parameter: Sendable, Hashable {
        /// The name as sent.
        public var name: String
        /// Where it travels.
        public var location: Location
        /// Its schema (a string or an integer).
        public var schema: Schema
        /// Whether it must be present. Path parameters always are.
        public var required: Bool
        /// What it means.
        public var summary: String
        /// A value that exists in the seeded backend, for the OpenAPI `example`.
        public var example: String?

        /// Creates a parameter.
        public init(
            _ name: String, in location: Location, _ schema: Schema, required: Bool, _ summary: String,
            example: String? = nil
        ) {
            self.name = name
            self.location = location
            self.schema = schema
            self.required = location == .path ? true : required
            self.summary = summary
            self.example = example
        }
    }

    /// A request body.
    public enum Body: Sendable, Hashable {
        /// A JSON document with this schema.
        case json(Schema)
        /// Raw bytes of one of these media types, streamed.
        case binary(contentTypes: [String])
        /// A `multipart/form-data` form with one file part of this field name.
        case multipartFile(field: String, contentTypes: [String])

        /// The media types accepted.
        public var contentTypes: [String] {
            switch self {
            case .json: ["application/json"]
            case .binary(let types): types
            case .multipartFile: ["multipart/form-data"]
            }
        }
    }

    /// One documented response.
    public struct ResponseSpec: Sendable, Hashable {
        /// The status code.
        public var status: Int
        /// What it means.
        public var summary: String
        /// The JSON body's schema; `nil` for no body.
        public var schema: Schema?

        /// Creates a response spec.
        public init(_ status: Int, _ summary: String, _ schema: Schema?) {
            self.status = status
            self.summary = summary
            self.schema = schema
        }
    }
}
