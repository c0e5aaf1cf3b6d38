/// One node of a YAML document as written, before its scalars are resolved: what the parser builds and
/// the value builder turns into a `JSONValue`.
struct YAMLNode {
    /// What the node holds.
    enum Kind {
        /// A scalar's text after folding and escapes; `plain` when it was written unquoted.
        case scalar(String, plain: Bool)
        case sequence([YAMLNode])
        case mapping([(key: YAMLNode, value: YAMLNode)])
        /// `*name`: the node anchored as `&name` earlier in the document.
        case alias(String)
    }

    var kind: Kind
    /// The tag as resolved by the document's handles (`!!str` is `tag:yaml.org,2002:str`), `!` for the
    /// non-specific tag, nil when none was written.
    var tag: String?
    var anchor: String?
    /// The 1-based line of the node's first character.
    var line: Int
    /// The 1-based column of the node's first character.
    var column: Int

    /// A node with nothing written (`key:` with no value): the empty plain scalar, which is null.
    static func empty(line: Int, column: Int) -> YAMLNode {
        YAMLNode(kind: .scalar("", plain: true), line: line, column: column)
    }
}
