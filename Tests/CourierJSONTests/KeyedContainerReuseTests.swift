import CourierJSON
import Foundation
import Testing

/// Keyed containers are handed out again once nobody holds them: these types hold theirs while
/// objects of the same key type are decoded, keep them past `init(from:)`, or decode on several
/// threads at once, and must read their own object each time.
@Suite struct KeyedContainerReuseTests {
    /// Reads `name`, then its children (objects of the same key type), then `after` through the
    /// container it took first.
    final class Node: Decodable, Sendable {
        let name: String
        let children: [Node]
        let after: Int

        enum CodingKeys: String, CodingKey { case name, children, after }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            children = try container.decode([Node].self, forKey: .children)
            after = try container.decode(Int.self, forKey: .after)
        }

        /// The tree as `name(after):[children]`, to compare with Foundation's.
        var outline: String {
            "\(name)(\(after)):[\(children.map(\.outline).joined(separator: ","))]"
        }
    }

    /// A tree deeper than the containers a pool keeps for one key type, with siblings at every level.
    static func tree(depth: Int, label: String = "r") -> String {
        let children =
            depth == 0
            ? ""
            : [tree(depth: depth - 1, label: label + "a"), tree(depth: depth - 1, label: label + "b")].joined(
                separator: ",")
        return #"{"name":"\#(label)","children":[\#(children)],"after":\#(label.count * 10 + depth)}"#
    }

    @Test func aParentsContainerStillReadsItsObjectAfterNestedObjectsOfItsType() throws {
        let data = Data(Self.tree(depth: 10).utf8)
        let courier = try CourierJSONDecoder().decode(Node.self, from: data)
        let foundation = try JSONDecoder().decode(Node.self, from: data)
        #expect(courier.outline == foundation.outline)
    }

    /// Keeps its container and reads from it after the decode returned, and after later decodes
    /// of the same type.
    struct Kept: Decodable {
        let container: KeyedDecodingContainer<Node.CodingKeys>
        init(from decoder: any Decoder) throws {
            container = try decoder.container(keyedBy: Node.CodingKeys.self)
        }
    }

    @Test func aContainerKeptPastTheDecodeReadsItsOwnObject() throws {
        let decoder = CourierJSONDecoder()
        let first = try decoder.decode(
            [Kept].self, from: Data(#"[{"name":"one","after":1},{"name":"two","after":2}]"#.utf8))
        // Later decodes of the same key type must not reuse (repoint) the kept containers.
        let second = try decoder.decode([Kept].self, from: Data(#"[{"name":"three","after":3}]"#.utf8))
        _ = try decoder.decode(Node.self, from: Data(Self.tree(depth: 3).utf8))
        #expect(try first[0].container.decode(String.self, forKey: .name) == "one")
        #expect(try first[1].container.decode(Int.self, forKey: .after) == 2)
        #expect(try second[0].container.decode(String.self, forKey: .name) == "three")
        #expect(throws: DecodingError.self) { try first[0].container.decode(Int.self, forKey: .children) }
    }

    @Test func decodesOnSeveralThreadsAtOnceReadTheirOwnDocuments() async throws {
        let outlines = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<8 {
                group.addTask {
                    let data = Data(Self.tree(depth: 5, label: "t\(index)").utf8)
                    var last = ""
                    for _ in 0..<50 { last = try CourierJSONDecoder().decode(Node.self, from: data).outline }
                    return (index, last)
                }
            }
            var results: [Int: String] = [:]
            for try await (index, outline) in group { results[index] = outline }
            return results
        }
        for index in 0..<8 {
            let data = Data(Self.tree(depth: 5, label: "t\(index)").utf8)
            #expect(outlines[index] == (try JSONDecoder().decode(Node.self, from: data)).outline)
        }
    }

    /// Reads its keys in an order of its own; optional `d` may be missing or hold an object.
    struct Shaped: Decodable, Equatable {
        var c: String
        var a: Int
        var d: [String: Int]?
        var b: String
    }

    /// Each object of one type is looked up where the keys of the previous ones were found first:
    /// objects whose keys move, that gain a nested member, hold a duplicate key or a value equal
    /// to a key's name must still give each key its own value, the first of duplicates winning.
    @Test func keysThatMoveBetweenObjectsOfOneTypeAreStillFound() throws {
        let data = Data(
            (#"[{"a":1,"b":"b1","c":"c1"},{"a":2,"b":"b2","c":"c2"},{"c":"c3","b":"b3","a":3},"#
                + #"{"b":"a","a":4,"c":"b"},{"d":{"x":1},"a":5,"b":"b5","c":"c5"},{"a":6,"b":"b6","c":"c6"},"#
                + #"{"a":7,"b":"b7","c":"c7","a":-7},{"c":"c8","a":8,"b":"b8","b":"late"},{"a":9,"b":"b9","c":"c9"}]"#)
                .utf8)
        let courier = try CourierJSONDecoder().decode([Shaped].self, from: data)
        #expect(courier == (try JSONDecoder().decode([Shaped].self, from: data)))
        #expect(courier.map(\.a) == [1, 2, 3, 4, 5, 6, 7, 8, 9])
    }

    /// An error inside a nested object of the same key type reports that object's path.
    @Test func anErrorInANestedObjectOfTheSameTypeKeepsItsPath() {
        let data = Data(
            #"{"name":"r","children":[{"name":"a","children":[],"after":1},{"name":"b","children":[],"after":"x"}],"after":0}"#
                .utf8)
        let expected = describe { try JSONDecoder().decode(Node.self, from: data) }
        #expect(describe { try CourierJSONDecoder().decode(Node.self, from: data) } == expected)
        #expect(expected.contains("children/Index 1/after"))
    }

    private func describe(_ body: () throws -> Node) -> String {
        do {
            return try body().outline
        } catch let DecodingError.typeMismatch(_, context) {
            return "typeMismatch " + context.codingPath.map(\.stringValue).joined(separator: "/") + " "
                + context.debugDescription
        } catch {
            return "\(error)"
        }
    }
}
