extension Contract {
    /// The named model schemas, in the order the OpenAPI document lists them.
    public static let schemas: [(name: String, schema: Schema)] = [
        (
            "User",
            .object(
                [
                    .init("id", .identifier), .init("name", .text(1, 100)), .init("email", .anyString),
                    .init("profileImageURL", .uri), .init("createdAt", .dateTime),
                ], required: ["id", "name", "email", "createdAt"])
        ),
        (
            "AuthSession",
            .object(
                [
                    .init("token", .text(1)), .init("refreshToken", .text(1)),
                    .init("expiresAt", .dateTime), .init("user", .ref("User")),
                ], required: ["token", "refreshToken", "expiresAt", "user"])
        ),
        (
            "Credentials",
            .object(
                [.init("email", .email), .init("password", .text(6, 128))],
                required: ["email", "password"])
        ),
        (
            "SignupForm",
            .object(
                [.init("name", .text(1, 100)), .init("email", .email), .init("password", .text(6, 128))],
                required: ["email", "password"])
        ),
        ("RefreshForm", .object([.init("refreshToken", .text(1, 200))], required: ["refreshToken"])),
        (
            "Post",
            .object(
                [
                    .init("id", .identifier), .init("authorId", .identifier), .init("authorName", .anyString),
                    .init("video", .fileName), .init("videoURL", .uri), .init("description", .anyString),
                    .init("likes", .integer(minimum: 0)), .init("comments", .integer(minimum: 0)),
                    .init("pageNumber", .integer(minimum: 1)), .init("createdAt", .dateTime),
                ],
                required: [
                    "id", "authorId", "authorName", "video", "description", "likes", "comments",
                    "pageNumber", "createdAt",
                ])
        ),
        (
            "NewPost",
            .object(
                [.init("video", .fileName), .init("videoURL", .uri), .init("description", .text(0, 2000))],
                required: ["video", "videoURL", "description"])
        ),
        (
            "PostsPage",
            .object(
                [
                    .init("items", .array(.ref("Post"))), .init("pageNumber", .integer(minimum: 1)),
                    .init("size", .integer(minimum: 1)), .init("nextPageNumber", .integer(minimum: 1)),
                ], required: ["items", "pageNumber", "size"])
        ),
        (
            "PostCursorPage",
            .object(
                [.init("items", .array(.ref("Post"))), .init("nextCursor", .cursor)], required: ["items"])
        ),
        (
            "PostKeysetPage",
            .object([.init("items", .array(.ref("Post"))), .init("nextKey", .postKey)], required: ["items"])
        ),
        (
            "Tweet",
            .object(
                [
                    .init("id", .identifier), .init("uid", .identifier), .init("caption", .anyString),
                    .init("likes", .integer(minimum: 0)), .init("timestamp", .dateTime),
                    .init("user", .ref("User")),
                ], required: ["id", "uid", "caption", "likes", "timestamp"])
        ),
        ("NewTweet", .object([.init("caption", .text(1, 280))], required: ["caption"])),
        (
            "StoredVideo",
            .object(
                [
                    .init("name", .fileName), .init("size", .integer(minimum: 0)), .init("etag", .text(1)),
                    .init("downloadURL", .uri),
                ], required: ["name", "size", "etag", "downloadURL"])
        ),
        ("VideoLink", .object([.init("name", .fileName), .init("url", .uri)], required: ["name", "url"])),
        (
            "Error",
            .object(
                [.init("error", .text(1)), .init("message", .anyString), .init("parameter", .anyString)],
                required: ["error", "message"])
        ),
    ]

    /// The schema named `name`, if declared.
    public static func schema(named name: String) -> Schema? {
        schemas.first { $0.name == name }?.schema
    }
}

extension Schema {
    /// A feed cursor, as `CursorPage.nextCursor` returns it: `c` and digits.
    public static let cursor = Schema.string(
        StringRules(
            minLength: 2, maxLength: 13, prefix: "c", allowed: Set("0123456789"), pattern: "^c[0-9]{1,12}$"))
    /// A keyset key, as `KeysetPage.nextKey` returns it: a post id, `p-` and digits.
    public static let postKey = Schema.string(
        StringRules(
            minLength: 3, maxLength: 14, prefix: "p-", allowed: Set("0123456789"), pattern: "^p-[0-9]{1,12}$")
    )
}
