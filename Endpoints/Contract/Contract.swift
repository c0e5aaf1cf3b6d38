import Courier

/// The social API's contract: every operation, declared once.
///
/// The endpoint enums map each case to one of these operations (a test checks both
/// ways), the mock server's social backend routes and validates by them, and
/// `OpenAPIDocument` writes them as OpenAPI 3.1.
public enum Contract {
    /// Every operation, grouped by endpoint enum.
    public static let operations: [APIOperation] = onboarding + posts + tweets + upload

    /// The operation with this id, such as `posts.page`.
    public static func operation(id: String) -> APIOperation? {
        operations.first { $0.id == id }
    }

    static let error = Schema.ref("Error")
    static let badRequest = APIOperation.ResponseSpec(400, "A parameter breaks the contract", error)
    static let unauthorized = APIOperation.ResponseSpec(401, "Missing, invalid or expired token", error)
    static let forbidden = APIOperation.ResponseSpec(403, "Another user's data", error)
    static let notFound = APIOperation.ResponseSpec(404, "No such resource", error)
    static let userId = APIOperation.Parameter(
        "userId", in: .path, .identifier, required: true, "A user id", example: "u-000001")
    static let postId = APIOperation.Parameter(
        "postId", in: .path, .identifier, required: true, "A post id", example: "p-000006")
    static let videoName = APIOperation.Parameter(
        "name", in: .path, .fileName, required: true, "The video's file name, with its extension",
        example: "seed-001.mp4")
    static let limit = APIOperation.Parameter(
        "limit", in: .query, .integer(minimum: 1, maximum: 100), required: false,
        "How many items to return (default 10)")

    static let onboarding: [APIOperation] = [
        APIOperation(
            id: "onboarding.login", method: .post, path: "/auth/login",
            summary: "Log in with email and password",
            requiresAuth: false, body: .json(.ref("Credentials")),
            responses: [
                .init(200, "Signed in", .ref("AuthSession")), badRequest,
                .init(401, "Wrong email or password", error),
            ]),
        APIOperation(
            id: "onboarding.signup", method: .post, path: "/auth/signup", summary: "Create an account",
            requiresAuth: false, body: .json(.ref("SignupForm")),
            responses: [
                .init(201, "Account created and signed in", .ref("AuthSession")), badRequest,
                .init(409, "The email is already registered", error),
            ]),
        APIOperation(
            id: "onboarding.refresh", method: .post, path: "/auth/refresh",
            summary: "Exchange a refresh token for a new session", requiresAuth: false,
            body: .json(.ref("RefreshForm")),
            responses: [
                .init(200, "A new session", .ref("AuthSession")), badRequest,
                .init(401, "Unknown refresh token", error),
            ]),
        APIOperation(
            id: "onboarding.me", method: .get, path: "/me", summary: "The signed-in user", requiresAuth: true,
            responses: [.init(200, "The user", .ref("User")), unauthorized]),
    ]

    static let posts: [APIOperation] = [
        APIOperation(
            id: "posts.page", method: .get, path: "/posts",
            summary: "Posts whose page number is in pageNumber ..< pageNumber + size", requiresAuth: false,
            parameters: [
                .init(
                    "pageNumber", in: .query, .integer(minimum: 1, maximum: 1_000_000_000), required: true,
                    "The first page number (1-based)"),
                .init(
                    "size", in: .query, .integer(minimum: 1, maximum: 100), required: false,
                    "How many page numbers (default 5)"),
            ],
            responses: [.init(200, "The posts, ascending page number", .ref("PostsPage")), badRequest]),
        APIOperation(
            id: "posts.feed", method: .get, path: "/users/{userId}/feed",
            summary: "A user's feed, newest first, continued with a cursor", requiresAuth: true,
            parameters: [
                userId, limit,
                .init("after", in: .query, .cursor, required: false, "The nextCursor of the previous batch"),
            ],
            responses: [
                .init(200, "One batch", .ref("PostCursorPage")), badRequest, unauthorized, forbidden,
                notFound,
            ]),
        APIOperation(
            id: "posts.latest", method: .get, path: "/timeline",
            summary: "The latest posts, then the ones before a key, until the oldest", requiresAuth: false,
            parameters: [
                limit,
                .init("before", in: .query, .postKey, required: false, "The nextKey of the previous batch"),
            ],
            responses: [.init(200, "One batch, newest first", .ref("PostKeysetPage")), badRequest]),
        APIOperation(
            id: "posts.post", method: .get, path: "/posts/{postId}", summary: "One post", requiresAuth: false,
            parameters: [postId],
            responses: [.init(200, "The post", .ref("Post")), badRequest, notFound]),
        APIOperation(
            id: "posts.like", method: .post, path: "/posts/{postId}/like",
            summary: "Like a post (once per user)", requiresAuth: true, parameters: [postId],
            responses: [.init(200, "The post, liked", .ref("Post")), badRequest, unauthorized, notFound]),
    ]

    static let tweets: [APIOperation] = [
        APIOperation(
            id: "tweets.upload", method: .post, path: "/tweets",
            summary: "Upload a tweet as the signed-in user",
            requiresAuth: true, body: .json(.ref("NewTweet")),
            responses: [.init(201, "The tweet", .ref("Tweet")), badRequest, unauthorized]),
        APIOperation(
            id: "tweets.all", method: .get, path: "/tweets", summary: "All tweets, newest first",
            requiresAuth: false, responses: [.init(200, "The tweets", .array(.ref("Tweet")))]),
        APIOperation(
            id: "tweets.byUser", method: .get, path: "/users/{userId}/tweets",
            summary: "One user's tweets, newest first", requiresAuth: false, parameters: [userId],
            responses: [.init(200, "The tweets", .array(.ref("Tweet"))), badRequest, notFound]),
        APIOperation(
            id: "tweets.user", method: .get, path: "/users/{userId}", summary: "One user",
            requiresAuth: false,
            parameters: [userId], responses: [.init(200, "The user", .ref("User")), badRequest, notFound]),
    ]

    static let upload: [APIOperation] = [
        APIOperation(
            id: "upload.video", method: .put, path: "/videos/{name}",
            summary: "Store a video under Videos/{name}, streamed", requiresAuth: true,
            parameters: [videoName],
            body: .binary(contentTypes: ["video/mp4", "application/octet-stream"]),
            responses: [
                .init(201, "Stored", .ref("StoredVideo")), badRequest, unauthorized,
                .init(403, "The name belongs to another user's video", error),
            ]),
        APIOperation(
            id: "upload.videoURL", method: .get, path: "/videos/{name}/url",
            summary: "A stored video's download URL", requiresAuth: false, parameters: [videoName],
            responses: [.init(200, "The link", .ref("VideoLink")), badRequest, notFound]),
        APIOperation(
            id: "upload.publish", method: .post, path: "/posts",
            summary: "Publish a post for a stored video, once per Idempotency-Key", requiresAuth: true,
            parameters: [
                .init(
                    "Idempotency-Key", in: .header, .text(1, 200), required: true,
                    "Repeating a key returns the first result instead of saving again")
            ],
            body: .json(.ref("NewPost")),
            responses: [
                .init(201, "Published (or the earlier result for this key)", .ref("Post")), badRequest,
                unauthorized, .init(404, "No stored video of that name", error),
                .init(409, "The key was used with a different body", error),
            ]),
        APIOperation(
            id: "upload.profileImage", method: .put, path: "/me/avatar",
            summary: "Upload the signed-in user's profile image", requiresAuth: true,
            body: .multipartFile(field: "image", contentTypes: ["image/jpeg", "image/png"]),
            responses: [.init(200, "The user, with profileImageURL", .ref("User")), badRequest, unauthorized]),
    ]
}
