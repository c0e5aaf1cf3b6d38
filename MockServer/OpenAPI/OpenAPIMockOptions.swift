/// How an ``OpenAPIHandler`` serves its document beyond the document itself: whether it keeps the
/// resources it is sent, which credentials it takes, and how it refuses a request to an operation that
/// declares no refusal.
///
/// ```swift
/// var options = OpenAPIMockOptions()
/// options.stateful = true
/// options.credentials = [.bearer("s3cret"), .apiKey(name: "X-API-Key", value: "k1")]
/// options.undeclaredRefusals = .status(400)
/// let handler = OpenAPIHandler(document: try OpenAPIDocument.parse(Data("openapi: 3.1.0".utf8)), options: options)
/// ```
public struct OpenAPIMockOptions: Sendable, Equatable {
    /// Keep resources between requests: a POST to a collection (`/pets`) stores what it creates under
    /// its identifier, a GET of the item path (`/pets/{id}`) reads it back, PUT and PATCH change it,
    /// DELETE removes it (a later GET is a 404), and a GET of the collection lists what is stored.
    /// Without it, every answer comes from the document's examples and schemas, whatever was sent before.
    public var stateful = false

    /// The credentials a protected operation takes. A scheme for which one is configured (a bearer token
    /// for `http bearer`, OAuth 2 and OpenID Connect; a user and password for `http basic`; a value for
    /// an API key of that name) lets in only that value, and answers any other with a 401. A scheme with
    /// none configured lets in any credentials of the right form (a non-empty token, a `user:password`
    /// pair, the API key present), as it does when this is empty.
    public var credentials: [MockCredential] = []

    /// How a request is refused when its operation declares no 4xx answer (no `4XX`, no `default`).
    public var undeclaredRefusals: UndeclaredRefusal = .standard

    /// The options of a plain mock: stateless, any credentials of the right form, standard refusals.
    public init() {}
}

/// One credential a mock takes, as `courier mock --credentials` writes it.
public enum MockCredential: Sendable, Hashable, CustomStringConvertible {
    /// A token sent as `Authorization: Bearer TOKEN` (`http bearer`, OAuth 2, OpenID Connect).
    case bearer(String)
    /// A user and password sent as `Authorization: Basic` (`http basic`).
    case basic(user: String, password: String)
    /// The value of the API key named `name` (in a header, the query or a cookie, as the scheme says).
    case apiKey(name: String, value: String)

    /// Reads `bearer=TOKEN`, `basic=USER:PASSWORD` or `apiKey=NAME:VALUE`.
    /// - Parameter text: the credential as written on the command line.
    /// - Throws: ``MockCredentialError`` when the kind is unknown or a part is missing.
    public init(parsing text: String) throws(MockCredentialError) {
        guard let equals = text.firstIndex(of: "=") else { throw MockCredentialError(text: text) }
        let kind = text[..<equals].lowercased()
        let value = String(text[text.index(after: equals)...])
        func pair() throws(MockCredentialError) -> (String, String) {
            guard let colon = value.firstIndex(of: ":"), colon != value.startIndex else {
                throw MockCredentialError(text: text)
            }
            return (String(value[..<colon]), String(value[value.index(after: colon)...]))
        }
        switch kind {
        case "bearer":
            guard !value.isEmpty else { throw MockCredentialError(text: text) }
            self = .bearer(value)
        case "basic":
            let (user, password) = try pair()
            self = .basic(user: user, password: password)
        case "apikey":
            let (name, key) = try pair()
            guard !key.isEmpty else { throw MockCredentialError(text: text) }
            self = .apiKey(name: name, value: key)
        default:
            throw MockCredentialError(text: text)
        }
    }

    /// The credential as `--credentials` takes it.
    public var description: String {
        switch self {
        case .bearer(let token): "bearer=\(token)"
        case .basic(let user, let password): "basic=\(user):\(password)"
        case .apiKey(let name, let value): "apiKey=\(name):\(value)"
        }
    }
}

/// A credential that is not `bearer=TOKEN`, `basic=USER:PASSWORD` or `apiKey=NAME:VALUE`.
public struct MockCredentialError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text as given.
    public var text: String

    /// Why it was refused, with the forms taken.
    public var description: String {
        "'\(text)' is not a credential: write bearer=TOKEN, basic=USER:PASSWORD or apiKey=NAME:VALUE"
    }
}

/// What a mock does with a request it refuses (bad parameters or body, missing credentials, a media type
/// not declared) when the operation declares no 4xx answer, no `4XX` range and no `default`.
public enum UndeclaredRefusal: Sendable, Hashable {
    /// Refuse with the status HTTP has for it (400, 401, 415 or 422) and a JSON body naming each problem,
    /// though the document does not declare that status.
    case standard
    /// Refuse with this status instead, and the same JSON body.
    case status(Int)
    /// Answer as if the request were valid, from the document's success answer; the refusal the mock
    /// would have made is named in the `Courier-Mock-Refusal` header.
    case accept

    /// Reads `standard`, `accept` or a status from 400 to 599.
    /// - Parameter text: the mode as written on the command line.
    /// - Returns: nil for anything else.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "standard": self = .standard
        case "accept": self = .accept
        default:
            guard let status = Int(text), (400...599).contains(status) else { return nil }
            self = .status(status)
        }
    }
}
