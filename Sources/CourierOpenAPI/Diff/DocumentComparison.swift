import CourierPrimitives

/// One run of `ContractDiff.compare`: walks the client's operations and finds each in the
/// provider's document.
struct DocumentComparison {
    let client: ReferencedDocument
    let provider: ReferencedDocument
    var breaking: [ContractDiff.Change] = []
    var harmless: [ContractDiff.Change] = []
    /// The operation being compared, as `METHOD /path`.
    var operation = ""
    /// Schema pairs already compared for this operation (by pointers and direction): a recursive
    /// schema is compared once.
    var compared: Set<String> = []

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    init(client: OpenAPIDocument, provider: OpenAPIDocument) {
        self.client = ReferencedDocument(document: client)
        self.provider = ReferencedDocument(document: provider)
    }

    /// An operation found in a document.
    struct Found {
        var path: String
        var method: String
        var value: JSONValue
        var pointer: String
        /// The path item's parameters, which the operation's own override.
        var pathParameters: [(value: JSONValue, pointer: String)]
    }

    /// Every operation of `document`, by method and path shape.
    static func operations(of document: ReferencedDocument) throws(OpenAPIDocumentError) -> [String: Found] {
        guard case .object(let paths)? = document.root["paths"] else { return [:] }
        var found: [String: Found] = [:]
        for (path, rawItem) in paths {
            let (item, itemPointer) = try document.resolve(rawItem, at: PointerText.join("/paths", path))
            var shared: [(JSONValue, String)] = []
            if case .array(let list)? = item["parameters"] {
                for (index, parameter) in list.enumerated() {
                    shared.append((parameter, PointerText.join(itemPointer, "parameters", String(index))))
                }
            }
            for method in methods {
                guard let operation = item[method] else { continue }
                found[key(method, path)] = Found(
                    path: path, method: method, value: operation,
                    pointer: PointerText.join(itemPointer, method), pathParameters: shared)
            }
        }
        return found
    }

    /// `GET /users/{}`: the method and the path with every template parameter unnamed.
    static func key(_ method: String, _ path: String) -> String {
        var shape = ""
        var inParameter = false
        for character in path {
            if character == "{" {
                inParameter = true
                shape += "{}"
            } else if character == "}" {
                inParameter = false
            } else if !inParameter {
                shape.append(character)
            }
        }
        return method.uppercased() + " " + shape
    }

    mutating func run() throws(OpenAPIDocumentError) {
        let ours = try Self.operations(of: client)
        let theirs = try Self.operations(of: provider)
        for key in ours.keys.sorted() {
            guard let mine = ours[key] else { continue }
            operation = mine.method.uppercased() + " " + mine.path
            compared = []
            guard let other = theirs[key] else {
                let pathGone = !theirs.values.contains {
                    Self.key("get", $0.path) == Self.key("get", mine.path)
                }
                note(
                    pathGone ? "api-path-removed-without-deprecation" : "api-removed-without-deprecation",
                    pathGone ? "the path is gone" : "the operation is gone",
                    mine.pointer, nil)
                continue
            }
            try compareOperation(mine, other)
        }
        for key in theirs.keys.sorted() where ours[key] == nil {
            guard let other = theirs[key] else { continue }
            operation = other.method.uppercased() + " " + other.path
            note("endpoint-added", "a new operation", nil, other.pointer, harmless: true)
        }
    }

    mutating func note(
        _ rule: String, _ message: String, _ clientPointer: String?, _ providerPointer: String?,
        harmless isHarmless: Bool = false
    ) {
        let change = ContractDiff.Change(
            rule: rule, operation: operation, message: message, clientPointer: clientPointer,
            providerPointer: providerPointer)
        if isHarmless { harmless.append(change) } else { breaking.append(change) }
    }

    mutating func compareOperation(_ mine: Found, _ other: Found) throws(OpenAPIDocumentError) {
        let (ourOperation, ourPointer) = try client.resolve(mine.value, at: mine.pointer)
        let (theirOperation, theirPointer) = try provider.resolve(other.value, at: other.pointer)
        compareSecurity(ourOperation, ourPointer, theirOperation, theirPointer)
        try compareParameters(
            Found(
                path: mine.path, method: mine.method, value: ourOperation, pointer: ourPointer,
                pathParameters: mine.pathParameters),
            Found(
                path: other.path, method: other.method, value: theirOperation, pointer: theirPointer,
                pathParameters: other.pathParameters))
        try compareRequestBody(ourOperation, ourPointer, theirOperation, theirPointer)
        try compareResponses(ourOperation, ourPointer, theirOperation, theirPointer)
    }
}
