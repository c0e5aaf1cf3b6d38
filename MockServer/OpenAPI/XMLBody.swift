import CourierOpenAPI
import CourierPrimitives
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An XML body read as the JSON value its schema describes, by the schema's `xml` objects (`name`,
/// `attribute`, `wrapped`), so that it is checked like a JSON body.
struct XMLBody {
    /// One element: its name, attributes, children and text.
    final class Element {
        let name: String
        let attributes: [String: String]
        var children: [Element] = []
        var text = ""

        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }
    }

    /// Builds the element tree from the parser's events.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [Element] = []
        var root: Element?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            let element = Element(name: elementName, attributes: attributes)
            stack.last?.children.append(element)
            if stack.isEmpty { root = element }
            stack.append(element)
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
            qualifiedName: String?
        ) {
            _ = stack.popLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }
    }

    let decoding: ParameterDecoding

    /// The root element, or nil when the text is not well-formed XML.
    static func parse(_ data: Data) -> Element? {
        let parser = XMLParser(data: data)
        let builder = TreeBuilder()
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        // An element left open is malformed even when the parser reports success at the end of the input.
        guard parser.parse(), parser.parserError == nil, builder.stack.isEmpty else { return nil }
        return builder.root
    }

    /// The element as the value `schema` describes.
    func value(_ element: Element, _ schema: JSONValue?, depth: Int = 0) -> JSONValue {
        guard depth < 64 else { return .null }
        switch decoding.shape(schema) {
        case .primitive:
            return decoding.coerce(element.text.trimmingCharacters(in: .whitespacesAndNewlines), schema)
        case .array(let items):
            return .array(element.children.map { value($0, items, depth: depth + 1) })
        case .object(let properties, let additional):
            let text = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
            // Text where elements are due (`<user>true</user>`) is a scalar, not an object.
            if element.children.isEmpty, !text.isEmpty { return .string(text) }
            var members: [String: JSONValue] = [:]
            for (name, raw) in properties.sorted(by: { $0.key < $1.key }) {
                let property = decoding.outline(raw)
                let xml = property["xml"]
                let tag = xml?["name"]?.stringValue ?? name
                if xml?["attribute"]?.boolValue == true {
                    if let text = element.attributes[tag] { members[name] = decoding.coerce(text, raw) }
                    continue
                }
                if case .array(let items) = decoding.shape(raw) {
                    if xml?["wrapped"]?.boolValue == true {
                        if let wrapper = element.children.first(where: { $0.name == tag }) {
                            members[name] = value(wrapper, raw, depth: depth + 1)
                        }
                    } else {
                        let itemTag = decoding.outline(items)["xml"]?["name"]?.stringValue ?? tag
                        let matching = element.children.filter { $0.name == itemTag }
                        if !matching.isEmpty {
                            members[name] = .array(matching.map { value($0, items, depth: depth + 1) })
                        }
                    }
                    continue
                }
                if let child = element.children.first(where: { $0.name == tag }) {
                    members[name] = value(child, raw, depth: depth + 1)
                }
            }
            let known = Set(
                properties.map { name, raw in decoding.outline(raw)["xml"]?["name"]?.stringValue ?? name })
            for child in element.children where !known.contains(child.name) && members[child.name] == nil {
                let schema = additional.flatMap { $0 == .bool(true) || $0 == .bool(false) ? nil : $0 }
                members[child.name] = value(child, schema, depth: depth + 1)
            }
            return .object(members)
        }
    }
}
