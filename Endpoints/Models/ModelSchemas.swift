import Courier
import CourierContract

import CourierContractModel
// What the Swift types of the models do not say: bounds, formats and patterns. Everything
// else in their schemas (names, types, which keys are required) is derived from their
// `Codable` conformances by `Schema.of(_:)`.

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

extension User: SchemaDescribing {
    public static let propertySchemas: [String: Schema] = ["id": .identifier, "name": .text(1, 100)]
}

extension AuthSession: SchemaDescribing {
    public static let propertySchemas: [String: Schema] = ["token": .text(1), "refreshToken": .text(1)]
}

extension Credentials: SchemaDescribing {
    public static let propertySchemas: [String: Schema] = ["email": .email, "password": .text(6, 128)]
}

extension SignupForm: SchemaDescribing {
    public static let propertySchemas: [String: Schema] = [
        "name": .text(1, 100), "email": .email, "password": .text(6, 128),
    ]
}

extension RefreshForm: SchemaDescribing {
    public static let propertySchemas: [String: Schema] = ["refreshToken": .text(1, 200)]
}

extension Post: SchemaDescribing {
    public static let propertySchemas: [String: Schema] = [
        "id": .identifier, "authorId": .identifier, "video": .fileName, "likes": .integer(minimum: 0),
        "comments": .integer(minimum: 0), "pageNumber": .integer(minimum: 1),
    ]
}

extension NewPost: SchemaDescribing {
    public static let propertySchemas: [String: Schema] = ["video": .fileName, "description": .text(0, 2000)]
}

extension PostsPage: SchemaDescribing {
    public static let propertySchemas: [String: Schema] = [
        "pageNumber": .integer(minimum: 1), "size": .integer(minimum: 1),
        "nextPageNumber": .integer(minimum: 1),
    ]
}

extension CursorPage: SchemaDescribing {
    public static var propertySchemas: [String: Schema] { ["nextCursor": .cursor] }
}

extension KeysetPage: SchemaDescribing {
    public static var propertySchemas: [String: Schema] { ["nextKey": .postKey] }
}

extension Tweet: SchemaDescribing {
    public static let propertySchemas: [String: Schema] = [
        "id": .identifier, "uid": .identifier, "likes": .integer(minimum: 0),
    ]
}

extension NewTweet: SchemaDescribing {
    public static let propertySchemas: [String: Schema] = ["caption": .text(1, 280)]
}

extension StoredVideo: SchemaDescribing {
    public static let propertySchemas: [String: Schema] = [
        "name": .fileName, "size": .integer(minimum: 0), "etag": .text(1),
    ]
}

extension VideoLink: SchemaDescribing {
    public static let propertySchemas: [String: Schema] = ["name": .fileName]
}

extension APIErrorBody: SchemaDescribing {
    public static let propertySchemas: [String: Schema] = ["error": .text(1)]
}
