/// One generated static function of an `API` enum.
struct OperationDeclaration {
    struct Argument {
        var label: String
        var type: String
        var optional: Bool
        /// The value the samples pass, if any (an optional argument may be left out).
        var sample: String?
    }

    var functionName: String
    var summary: String
    var method: String
    var path: String
    /// The success status whose body the response type decodes; nil when the document states none.
    var status: Int?
    /// Further success statuses with the same body.
    var otherStatuses: [Int] = []
    /// The `SecurityScheme` expressions of the schemes it takes, any one of them: `.basic`.
    var security: [String]
    /// The success response's media type, when it is not `application/json`.
    var contentType: String?
    var errors: [Int]
    var arguments: [Argument]
    /// The lines of the endpoint builder: `Path(...)`, `Query(...)`, `Body(...)`.
    var parts: [String]
    var response: String
    var documentation: String?
    /// Each error response's model (nil for none) and media type, by status: the group's
    /// `errorSchema` and `errorContentType` are the most common, and a model other than the
    /// group's is declared for its operation.
    var errorModels: [(status: String, pointer: String, model: String?, contentType: String?)]
}

/// One generated `API` enum: the operations of one tag.
struct GroupDeclaration {
    var tag: String?
    var enumName: String
    /// Set when the tag is not what the enum's name gives as its group.
    var groupOverride: String?
    var operations: [OperationDeclaration] = []
    var errorModel: String?
    var errorContentType: String?
    var functionNames: Set<String> = ["samples", "operations", "group", "errorSchema", "endpoint"]
}
