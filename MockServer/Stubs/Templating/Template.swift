/// A compiled Handlebars template (the subset WireMock's response templating uses).
///
/// Supported: text, `{{expr}}` (HTML-escaped, as Handlebars does), `{{{expr}}}` and `{{&expr}}` (raw),
/// comments `{{! }}` and `{{!-- --}}`, blocks `{{#name ...}}…{{else}}…{{/name}}` with `{{else name ...}}`
/// chains and block parameters (`as |item index|`), whitespace control (`{{~ ~}}`), `\{{` for literal
/// braces, paths (`a.b.[1]`, `this`, `../x`, `@index`), string, number and Boolean literals,
/// sub-expressions `(helper ...)` and hash arguments `key=value`.
struct Template: Sendable {
    indirect enum Node: Sendable {
        case text(String)
        case output(Expression, escaped: Bool)
        case block(Block)
    }

    struct Block: Sendable {
        var name: String
        var params: [Expression]
        var hash: [(String, Expression)]
        var blockParams: [String]
        var body: [Node]
        var inverse: [Node]?
        var position: Int
    }

    indirect enum Expression: Sendable {
        case path(Path)
        case literal(TemplateValue)
        case call(name: String, params: [Expression], hash: [(String, Expression)], position: Int)
    }

    struct Path: Sendable {
        /// How many `../` lead the path.
        var depth = 0
        /// `@index`, `@key`, `@first`, `@last`.
        var isData = false
        /// The segments after `this` (empty for `this` itself).
        var segments: [String] = []
        /// Whether it starts with `this` or `./`, so it is never taken for a helper.
        var isExplicitContext = false
        var position = 0
    }

    /// Why a template could not be compiled or rendered, with where (a character offset).
    struct Failure: Error, CustomStringConvertible, Sendable {
        var message: String
        var position: Int?

        var description: String {
            position.map { "\(message) (at character \($0))" } ?? message
        }
    }

    let source: String
    let nodes: [Node]

    /// Compiles `source`.
    /// - Throws: ``Failure`` for an unclosed tag or block, a mismatched closing tag, or bad syntax.
    init(_ source: String) throws(Failure) {
        self.source = source
        var parser = TemplateParser(source)
        nodes = try parser.parseDocument()
    }

    /// Whether `text` holds anything a template would change (so plain text skips compiling).
    static func mayContainTags(_ text: String) -> Bool {
        text.contains("{{")
    }
}
