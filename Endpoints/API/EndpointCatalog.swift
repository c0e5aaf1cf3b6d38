import Foundation

/// Builds any endpoint case from its operation id and text arguments, for `courier call`.
///
/// ```swift
/// let endpoint = try EndpointCatalog.make("posts.page", arguments: ["pageNumber": "1", "size": "5"])
/// ```
public enum EndpointCatalog {
    /// One argument of a case.
    public struct Argument: Sendable, Hashable {
        /// The name, given as `--name value`.
        public var name: String
        /// Whether it must be given.
        public var required: Bool
        /// `string`, `int` or `file`.
        public var kind: String
    }

    /// One callable case.
    public struct Entry: Sendable {
        /// The operation id, such as `posts.page`.
        public var id: String
        /// The arguments it takes.
        public var arguments: [Argument]
        let build: @Sendable (Arguments) throws(CatalogError) -> any ContractEndpoint

        /// The operation in the contract.
        public var operation: APIOperation? { Contract.operation(id: id) }
    }

    /// A bad `courier call`: unknown endpoint, missing or malformed argument.
    public struct CatalogError: Error, Sendable, CustomStringConvertible {
        /// What was wrong.
        public var description: String
    }

    /// Arguments by name, read with type checks.
    struct Arguments {
        let values: [String: String]

        func string(_ name: String) throws(CatalogError) -> String {
            guard let value = values[name] else { throw CatalogError(description: "--\(name) is required") }
            return value
        }

        func int(_ name: String, default fallback: Int? = nil) throws(CatalogError) -> Int {
            guard let text = values[name] else {
                if let fallback { return fallback }
                throw CatalogError(description: "--\(name) is required")
            }
            guard let value = Int(text) else {
                throw CatalogError(description: "--\(name) must be an integer, not \(text)")
            }
            return value
        }

        func file(_ name: String) throws(CatalogError) -> URL {
            URL(fileURLWithPath: try string(name))
        }

        func url(_ name: String) throws(CatalogError) -> URL {
            let text = try string(name)
            guard let url = URL(string: text), url.scheme != nil else {
                throw CatalogError(description: "--\(name) must be an absolute URL, not \(text)")
            }
            return url
        }
    }

    static func arg(_ name: String, _ kind: String = "string", required: Bool = true) -> Argument {
        Argument(name: name, required: required, kind: kind)
    }

    /// Every callable case, in contract order.
    public static let entries: [Entry] = [
        Entry(id: "onboarding.login", arguments: [arg("email"), arg("password")]) { a throws(CatalogError) in
            OnboardingEndPoint.login(email: try a.string("email"), password: try a.string("password"))
        },
        Entry(
            id: "onboarding.signup", arguments: [arg("name", required: false), arg("email"), arg("password")]
        ) {
            a throws(CatalogError) in
            OnboardingEndPoint.signup(
                name: a.values["name"], email: try a.string("email"), password: try a.string("password"))
        },
        Entry(id: "onboarding.refresh", arguments: [arg("refreshToken")]) { a throws(CatalogError) in
            OnboardingEndPoint.refresh(refreshToken: try a.string("refreshToken"))
        },
        Entry(id: "onboarding.me", arguments: []) { _ throws(CatalogError) in OnboardingEndPoint.me },
        Entry(id: "posts.page", arguments: [arg("pageNumber", "int"), arg("size", "int", required: false)]) {
            a throws(CatalogError) in
            PostsEndPoint.page(pageNumber: try a.int("pageNumber"), size: try a.int("size", default: 5))
        },
        Entry(
            id: "posts.feed",
            arguments: [arg("userId"), arg("limit", "int", required: false), arg("after", required: false)]
        ) { a throws(CatalogError) in
            PostsEndPoint.feed(
                userId: try a.string("userId"), limit: try a.int("limit", default: 10),
                after: a.values["after"])
        },
        Entry(
            id: "posts.latest",
            arguments: [arg("limit", "int", required: false), arg("before", required: false)]
        ) {
            a throws(CatalogError) in
            PostsEndPoint.latest(limit: try a.int("limit", default: 10), before: a.values["before"])
        },
        Entry(id: "posts.post", arguments: [arg("id")]) { a throws(CatalogError) in
            PostsEndPoint.post(id: try a.string("id"))
        },
        Entry(id: "posts.like", arguments: [arg("id")]) { a throws(CatalogError) in
            PostsEndPoint.like(id: try a.string("id"))
        },
        Entry(id: "tweets.upload", arguments: [arg("caption")]) { a throws(CatalogError) in
            TweetsEndPoint.upload(caption: try a.string("caption"))
        },
        Entry(id: "tweets.all", arguments: []) { _ throws(CatalogError) in TweetsEndPoint.all },
        Entry(id: "tweets.byUser", arguments: [arg("userId")]) { a throws(CatalogError) in
            TweetsEndPoint.byUser(userId: try a.string("userId"))
        },
        Entry(id: "tweets.user", arguments: [arg("id")]) { a throws(CatalogError) in
            TweetsEndPoint.user(id: try a.string("id"))
        },
        Entry(id: "upload.video", arguments: [arg("name"), arg("file", "file")]) { a throws(CatalogError) in
            UploadEndPoint.video(name: try a.string("name"), file: try a.file("file"))
        },
        Entry(id: "upload.videoURL", arguments: [arg("name")]) { a throws(CatalogError) in
            UploadEndPoint.videoURL(name: try a.string("name"))
        },
        Entry(
            id: "upload.publish",
            arguments: [
                arg("video"), arg("videoURL"), arg("description"), arg("idempotencyKey", required: false),
            ]
        ) { a throws(CatalogError) in
            UploadEndPoint.publish(
                post: NewPost(
                    video: try a.string("video"), videoURL: try a.url("videoURL"),
                    description: try a.string("description")),
                idempotencyKey: a.values["idempotencyKey"] ?? UUID().uuidString)
        },
        Entry(id: "upload.profileImage", arguments: [arg("file", "file")]) { a throws(CatalogError) in
            UploadEndPoint.profileImage(file: try a.file("file"))
        },
    ]

    /// The entry for an operation id.
    public static func entry(_ id: String) -> Entry? { entries.first { $0.id == id } }

    /// Builds the endpoint case for `id` from `--name value` arguments.
    /// - Throws: `CatalogError` for an unknown id, an unknown, missing or malformed argument.
    public static func make(_ id: String, arguments: [String: String]) throws(CatalogError)
        -> any ContractEndpoint
    {
        guard let entry = entry(id) else {
            throw CatalogError(description: "unknown endpoint \(id); `courier call --list` lists them")
        }
        let known = Set(entry.arguments.map(\.name))
        if let unknown = arguments.keys.sorted().first(where: { !known.contains($0) }) {
            let expected = entry.arguments.map { "--" + $0.name }.joined(separator: " ")
            throw CatalogError(
                description:
                    "\(id) takes no --\(unknown); it takes: \(expected.isEmpty ? "nothing" : expected)")
        }
        return try entry.build(Arguments(values: arguments))
    }

    /// One line per entry: id, method, path and arguments, for `courier call --list`.
    public static var listing: String {
        entries.map { entry in
            let operation = entry.operation
            let method = (operation?.method.rawValue ?? "?").padding(toLength: 6, withPad: " ", startingAt: 0)
            let path = (operation?.path ?? "?").padding(toLength: 24, withPad: " ", startingAt: 0)
            let arguments = entry.arguments.map {
                $0.required ? "--\($0.name) <\($0.kind)>" : "[--\($0.name) <\($0.kind)>]"
            }
            let auth = operation?.requiresAuth == true ? " (token)" : ""
            return entry.id.padding(toLength: 21, withPad: " ", startingAt: 0) + method + path
                + arguments.joined(separator: " ") + auth
        }.joined(separator: "\n")
    }
}
