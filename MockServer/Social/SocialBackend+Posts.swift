import Courier
import CourierContract
import CourierContractModel
import Endpoints
import Foundation
import MockServer
import MockServerContract

extension SocialBackend {
    /// Posts whose page number is in `pageNumber ..< pageNumber + size`, ascending.
    func page(_ call: ContractHandler.Call, origin: String) -> SocialResponse {
        let pageNumber = call.int("pageNumber") ?? 1
        let size = call.int("size") ?? 5
        let end = pageNumber + size
        let page = state.withLock { state -> PostsPage in
            let indices = state.posts.indices.filter {
                (pageNumber..<end).contains(state.posts[$0].post.pageNumber)
            }
            .sorted { state.posts[$0].post.pageNumber < state.posts[$1].post.pageNumber }
            let more = state.posts.contains { $0.post.pageNumber >= end }
            return PostsPage(
                items: indices.map { state.post(at: $0, origin: origin) }, pageNumber: pageNumber, size: size,
                nextPageNumber: more ? end : nil)
        }
        return .json(page)
    }

    /// The newest `limit` posts with `seq` below `before`, and whether older ones remain.
    func newestFirst(
        limit: Int, below before: Int?, in state: SocialState, origin: String
    ) -> (items: [Post], last: Int?, more: Bool) {
        var end = state.posts.count
        if let before {
            end = state.posts.partitioningIndex { $0.seq >= before }
        }
        let start = max(0, end - limit)
        let items = (start..<end).reversed().map { state.post(at: $0, origin: origin) }
        return (items, start < end ? state.posts[start].seq : nil, start > 0)
    }

    /// A user's feed, newest first, with an opaque-looking cursor. Everyone
    /// follows everyone in the mock, so the feed holds every post; only its owner may read it.
    func feed(_ call: ContractHandler.Call, userId: String, origin: String) throws -> SocialResponse {
        let owner = call.string("userId") ?? ""
        let limit = call.int("limit") ?? 10
        let after = call.string("after").flatMap { Int($0.dropFirst()) }
        let page = try state.withLock { state -> CursorPage<Post> in
            guard state.users[owner] != nil else { throw SocialFailure.notFound("no user \(owner)") }
            guard owner == userId else {
                throw SocialFailure.status(403, "forbidden", "a feed can only be read by its owner")
            }
            let batch = newestFirst(limit: limit, below: after, in: state, origin: origin)
            return CursorPage(items: batch.items, nextCursor: batch.more ? batch.last.map { "c\($0)" } : nil)
        }
        return .json(page)
    }

    /// The latest posts, then the ones before a key, until the oldest.
    func latest(_ call: ContractHandler.Call, origin: String) -> SocialResponse {
        let limit = call.int("limit") ?? 10
        let before = call.string("before").flatMap { Int($0.dropFirst(2)) }
        let page = state.withLock { state -> KeysetPage<Post> in
            let batch = newestFirst(limit: limit, below: before, in: state, origin: origin)
            let nextKey = batch.more ? batch.items.last?.id : nil
            return KeysetPage(items: batch.items, nextKey: nextKey)
        }
        return .json(page)
    }

    func post(id: String, origin: String) throws -> SocialResponse {
        let post = try state.withLock { state -> Post in
            guard let index = state.postIndex[id] else { throw SocialFailure.notFound("no post \(id)") }
            return state.post(at: index, origin: origin)
        }
        return .json(post)
    }

    func like(id: String, userId: String, origin: String) throws -> SocialResponse {
        let post = try state.withLock { state -> Post in
            guard let index = state.postIndex[id] else { throw SocialFailure.notFound("no post \(id)") }
            if state.posts[index].likers.insert(userId).inserted {
                state.posts[index].post.likes += 1
            }
            return state.post(at: index, origin: origin)
        }
        return .json(post)
    }

    /// Saves a post for a stored video, once per (user, Idempotency-Key).
    func publish(_ form: NewPost, key: String, userId: String, origin: String) throws -> SocialResponse {
        let post = try state.withLock { state -> Post in
            let slot = userId + "\n" + key
            if let earlier = state.publishes[slot] {
                guard earlier.request == form else {
                    throw SocialFailure.status(
                        409, "conflict", "Idempotency-Key \(key) was already used with a different body")
                }
                // allowed: a recorded publish always points at a saved post
                return state.post(at: state.postIndex[earlier.postId]!, origin: origin)
            }
            guard state.videos[form.video] != nil else {
                throw SocialFailure.notFound("no stored video named \(form.video); upload it first")
            }
            guard let author = state.users[userId] else {
                throw SocialFailure.status(401, "unauthorized", "the token's user no longer exists")
            }
            let seq = state.nextNumber()
            let post = Post(
                id: String(format: "p-%06d", seq), authorId: userId, authorName: author.name,
                video: form.video,
                videoURL: nil, description: form.description, likes: 0, comments: 0,
                pageNumber: state.maxPageNumber + 1, createdAt: Date())
            state.insert(post, seq: seq)
            state.publishes[slot] = SocialState.IdempotentPublish(request: form, postId: post.id)
            return state.post(at: state.posts.count - 1, origin: origin)
        }
        return .json(post, status: 201)
    }
}

extension SocialState {
    /// Appends a post; `seq` must be above every existing one.
    mutating func insert(_ post: Post, seq: Int) {
        postIndex[post.id] = posts.count
        posts.append(PostRecord(seq: seq, post: post))
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, which must be false then true along the array.
    func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
