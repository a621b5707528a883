package gitrepo

import (
	"fmt"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func memObject(t plumbing.ObjectType, content string) plumbing.EncodedObject {
	o := &plumbing.MemoryObject{}
	o.SetType(t)
	o.Write([]byte(content))
	return o
}

// TestObjectCacheKeepsTreesFromBlobs: blobs filling their LRU, many times
// over, push out older blobs but no tree.
func TestObjectCacheKeepsTreesFromBlobs(t *testing.T) {
	t.Parallel()
	c := newObjectCache()
	tree := memObject(plumbing.TreeObject, "tree")
	c.Put(tree)
	const size = 64 << 10
	var blobs []plumbing.EncodedObject
	for i := 0; i < 4*int(blobCacheSize)/size; i++ {
		b := memObject(plumbing.BlobObject, fmt.Sprintf("%0*d", size, i))
		blobs = append(blobs, b)
		c.Put(b)
	}
	if _, ok := c.Get(tree.Hash()); !ok {
		t.Fatal("the tree was evicted by blobs")
	}
	if _, ok := c.Get(blobs[0].Hash()); ok {
		t.Error("the first blob is still cached: blobs are not bounded by their own LRU")
	}
	if got, ok := c.Get(blobs[len(blobs)-1].Hash()); !ok || got.Type() != plumbing.BlobObject {
		t.Error("the last blob is not cached")
	}
	c.Clear()
	if _, ok := c.Get(tree.Hash()); ok {
		t.Error("Clear kept the tree")
	}
}
