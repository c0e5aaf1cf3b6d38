import Courier
import CourierPrimitives
import Endpoints
import Foundation
import MockServer
import SocialBackend
import TestSupport
import Testing

@Suite("Paginator")
struct PaginatorTests {
    struct Item: Identifiable, Sendable, Hashable {
        var id: Int
    }

    /// A newest-first list that grows at the front while it is paged.
    final class Source: Sendable {
        let items = Locked<[Int]>(Array((1...20).reversed()))
        func page(before: Int?, limit: Int) -> ([Item], String?) {
            items.withLock { items in
                let older = items.filter { item in before.map { item < $0 } ?? true }
                let page = Array(older.prefix(limit))
                return (page.map(Item.init), older.count > limit ? page.last.map(String.init) : nil)
            }
        }
    }

    /// A static stub answering every page with the same items and the same `next` cursor: the loop
    /// that skips pages without new items followed it forever (`courier demo --base-url` hung).
    @Test("a server that hands back a cursor it gave before ends the sequence")
    func aRepeatedCursorEnds() async throws {
        let calls = Locked(0)
        let paginator = Paginator<Item> { _ in
            calls.withLock { $0 += 1 }
            return ([Item(id: 1), Item(id: 2)], "same-cursor")
        }
        var pages: [[Int]] = []
        for try await page in paginator { pages.append(page.map(\.id)) }
        #expect(pages == [[1, 2]])
        #expect(calls.withLock { $0 } == 2)
        #expect(await paginator.isFinished)
        // A refresh forgets the cursors as well as the items.
        await paginator.refresh()
        #expect(try await paginator.nextPage()?.map(\.id) == [1, 2])
    }

    @Test("items arriving between pages are neither repeated nor skipped; the end is clean")
    func keysetInvariants() async throws {
        let source = Source()
        let paginator = Paginator<Item> { token in source.page(before: token.flatMap(Int.init), limit: 6) }
        var seen: [Int] = []
        var pages = 0
        for try await page in paginator {
            seen += page.map(\.id)
            pages += 1
            source.items.withLock { $0.insert(100 + pages, at: 0) }
        }
        #expect(seen == Array((1...20).reversed()))
        #expect(pages == 4)
        #expect(try await paginator.nextPage() == nil)
        await paginator.refresh()
        let first = try await paginator.nextPage()
        #expect(first?.first?.id == 104, "refresh starts from the newest")
    }

    @Test("an overlapping page is de-duplicated and an empty page ends the sequence")
    func overlapping() async throws {
        let calls = Locked(0)
        let paginator = Paginator<Item> { _ in
            let call = calls.withLock { count -> Int in
                count += 1
                return count
            }
            switch call {
            case 1: return ([Item(id: 1), Item(id: 2)], "a")
            case 2: return ([Item(id: 2), Item(id: 3)], "b")
            default: return ([], "c")
            }
        }
        #expect(try await paginator.nextPage()?.map(\.id) == [1, 2])
        #expect(try await paginator.nextPage()?.map(\.id) == [3])
        #expect(try await paginator.nextPage() == nil)
        #expect(await paginator.isFinished)
    }

    @Test("concurrent callers get distinct pages")
    func concurrentCallers() async throws {
        let source = Source()
        let paginator = Paginator<Item> { token in source.page(before: token.flatMap(Int.init), limit: 2) }
        let pages = try await withThrowingTaskGroup(of: [Item]?.self) { group in
            for _ in 0..<12 { group.addTask { try await paginator.nextPage() } }
            var all: [[Item]] = []
            for try await page in group { if let page { all.append(page) } }
            return all
        }
        let ids = pages.flatMap { $0.map(\.id) }
        #expect(ids.count == 20)
        #expect(Set(ids).count == 20)
    }

    // Before waiters honoured cancellation, the cancelled call waited for the gate, which opens
    // only after it: the time limit turns that hang into a failure.
    @Test(
        "a caller cancelled while it waits for its turn leaves at once; the next one still gets the page",
        .timeLimit(.minutes(1)))
    func cancelledWaiterLeavesTheQueue() async throws {
        let source = Source()
        let gate = Gate()
        let paginator = Paginator<Item> { token in
            await gate.wait()
            return source.page(before: token.flatMap(Int.init), limit: 5)
        }
        let first = Task { try await paginator.nextPage() }
        await gate.untilWaiting()  // the first call holds the paginator, inside its fetch
        let second = Task { try await paginator.nextPage() }
        #expect(await eventually { await paginator.hasWaiters })
        second.cancel()
        await #expect(throws: CancellationError.self) { try await second.value }
        #expect(await !paginator.hasWaiters)
        gate.open()
        #expect(try await first.value?.map(\.id) == [20, 19, 18, 17, 16])
        #expect(try await paginator.nextPage()?.map(\.id) == [15, 14, 13, 12, 11])
    }

    /// Holds fetches until opened, and tells when one is waiting.
    final class Gate: Sendable {
        private let state = Locked<(open: Bool, waiting: Int, parked: [CheckedContinuation<Void, Never>])>(
            (false, 0, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let go = state.withLock { state in
                    state.waiting += 1
                    if state.open { return true }
                    state.parked.append(continuation)
                    return false
                }
                if go { continuation.resume() }
            }
        }

        func untilWaiting() async {
            _ = await eventually { state.withLock { $0.waiting > 0 } }
        }

        func open() {
            let parked = state.withLock { state in
                state.open = true
                defer { state.parked = [] }
                return state.parked
            }
            for continuation in parked { continuation.resume() }
        }
    }

    @Test(
        "the three paging styles walk every post once against the server", arguments: TestTransport.allCases)
    func threeStyles(kind: TestTransport) async throws {
        try await withSocialServer(seed: 23) { server, _ in
            let client = SocialClient(transport: kind.make(), baseURL: server.baseURL)
            let session = try await UserRequest(client: client).login(
                email: "user1@example.com", password: SocialBackend.seedPassword)
            for paginator in [
                Paginator.pages(client: client, size: 4),
                .feed(client: client, userId: session.user.id, limit: 5),
                .latest(client: client, limit: 7),
            ] {
                var ids: [String] = []
                for try await page in paginator { ids += page.map(\.id) }
                #expect(ids.count == 23)
                #expect(Set(ids).count == 23)
            }
        }
    }
}
