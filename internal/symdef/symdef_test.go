package symdef

import (
	"fmt"
	"strings"
	"testing"
)

// show renders a definition as Container.Name:line.
func show(d Def) string {
	if d.Container != "" {
		return fmt.Sprintf("%s.%s:%d", d.Container, d.Name, d.Line)
	}
	return fmt.Sprintf("%s:%d", d.Name, d.Line)
}

func TestDefinitions(t *testing.T) {
	tests := []struct {
		file string
		src  string
		want []string // each must be found
		not  []string // names that must not be definitions
	}{
		{"a.go", `package a

type Server struct {
	Addr string
}

type Store interface {
	Get(k string) string
}

const Limit = 3

var (
	count, total int
)

func (s *Server) Run() error { return nil }

func (m Map[K]) Len() int { return 0 }

func helper() { call() }
`, []string{"Server:3", "Server.Addr:4", "Store:7", "Store.Get:8", "Limit:11", "count:14", "total:14", "Server.Run:17", "Map.Len:19", "helper:21"}, []string{"call"}},
		{"a.py", `import os

MAX_ITEMS = 10

class Runner(Base):
    name: str = "x"

    def run(self, x):
        return helper(x)

    async def stop(self):
        pass

    def configure(
        self,
        extra_args: Sequence[str] = (),
    ) -> None:
        local_name: int = 3

def helper(x):
    y = 3
    return y
`, []string{"MAX_ITEMS:3", "Runner:5", "Runner.name:6", "Runner.run:8", "Runner.stop:11", "Runner.configure:14", "helper:20"}, []string{"y", "os", "extra_args", "local_name"}},
		{"a.ts", `export interface Options {
  verbose?: boolean;
}

export class Client {
  private retries = 3;
  constructor(private url: string) {}

  async fetchAll(ids: string[]): Promise<void> {
    if (ids.length) {
      return;
    }
  }
}

export function makeClient(url: string): Client {
  return new Client(url);
}

export const defaultTimeout = 30;
type Mode = "a" | "b";
enum Color { Red }
`, []string{"Options:1", "Options.verbose:2", "Client:5", "Client.retries:6", "Client.fetchAll:9", "makeClient:16", "defaultTimeout:20", "Mode:21", "Color:22"}, []string{"if", "length"}},
		{"A.java", `package x;

public class OrderService {
    private final int limit = 3;

    public OrderService(int l) {
    }

    public List<Order> findOrders(String id) {
        return repo.find(id);
    }
}
`, []string{"OrderService:3", "OrderService.limit:4", "OrderService.findOrders:9"}, []string{"find"}},
		{"A.kt", `class Cache(val size: Int) {
    fun get(key: String): String? = null
    private val entries = mutableMapOf<String, String>()
}
fun String.shout(): String = uppercase()
typealias Key = String
`, []string{"Cache:1", "Cache.get:2", "Cache.entries:3", "shout:5", "Key:6"}, nil},
		{"A.cs", `namespace Shop
{
    public class Basket
    {
        public int Count { get; set; }
        private readonly List<Item> _items = new();

        public async Task<bool> AddItemAsync(Item item)
        {
            return await Save(item);
        }
    }

    public record Item(string Name);
}
`, []string{"Basket:3", "Basket.Count:5", "Basket._items:6", "Basket.AddItemAsync:8", "Item:14"}, []string{"Save"}},
		{"a.cpp", `#define MAX_LEN 10
struct Point {
  int x;
};
typedef unsigned long size_type;
class Parser : public Base {
 public:
  int parse(const char* s);
};
int Parser::parse(const char* s) {
  return helper(s);
}
static void helper(int x)
{
  foo(x);
}
`, []string{"MAX_LEN:1", "Point:2", "size_type:5", "Parser:6", "Parser.parse:10", "helper:13"}, []string{"foo"}},
		{"a.rs", `pub struct Engine {
    pub speed: u32,
}

impl Engine {
    pub fn start(&mut self) -> bool {
        run_it(self)
    }
}

pub enum Mode { Fast }
pub const LIMIT: usize = 3;
fn run_it(e: &Engine) -> bool { true }
macro_rules! my_macro { () => {} }
pub trait Store {
    fn get(&self) -> u32;
}
`, []string{"Engine:1", "Engine.speed:2", "Engine.start:6", "Mode:11", "LIMIT:12", "run_it:13", "my_macro:14", "Store:15", "Store.get:16"}, nil},
		// a member is directly in its container's braces: the names of a
		// use list in a method's body are not fields or variants
		{"b.rs", `pub enum Phase {
    Ready,
    Done(u32),
}

impl Service {
    fn issue(&self) {
        use crate::types::{
            TokenVersion,
            UserSlug,
        };
        let v = TokenVersion::default();
    }
}
`, []string{"Phase:1", "Phase.Ready:2", "Phase.Done:3", "Service.issue:7"}, []string{"TokenVersion", "UserSlug"}},
		{"a.rb", `module Billing
  RATE = 3
  class Invoice
    def total
      compute
    end
    def self.build(x)
    end
  end
end
`, []string{"Billing:1", "Billing.RATE:2", "Billing.Invoice:3", "Invoice.total:4", "Invoice.build:7"}, []string{"compute"}},
		{"a.php", `<?php
class UserRepo {
    private $cache;
    const VERSION = 2;
    public function find($id) {
        return load($id);
    }
}
function load($id) {}
`, []string{"UserRepo:2", "UserRepo.cache:3", "UserRepo.VERSION:4", "UserRepo.find:5", "load:9"}, nil},
		{"a.swift", `struct Point {
    let x: Int
    func moved() -> Point { return self }
}
enum Dir {
    case up
}
extension Point {
    func scaled() -> Point { self }
}
typealias Pt = Point
`, []string{"Point:1", "Point.x:2", "Point.moved:3", "Dir:5", "Dir.up:6", "Point.scaled:9", "Pt:11"}, nil},
		{"a.R", `compute_mean <- function(x) {
  mean(x)
}
threshold <- 0.5
setClass("Person", representation(name = "character"))
`, []string{"compute_mean:1", "threshold:4", "Person:5"}, []string{"mean"}},
		{"a.fs", `module Orders

type Order =
    | Pending
    | Shipped of int

let rec total items = 0
let private helper x = x
type Cart() =
    member this.Add(x) = x
`, []string{"Orders:1", "Order:3", "Order.Pending:4", "Order.Shipped:5", "total:7", "helper:8", "Cart:9", "Cart.Add:10"}, nil},
		{"a.sh", `#!/bin/bash
LOG_DIR=/tmp
function cleanup {
  rm -rf x
}
build_all() {
  make
}
`, []string{"LOG_DIR:2", "cleanup:3", "build_all:6"}, []string{"rm", "make"}},
		{"a.ps1", `function Get-SessionState {
    param([string]$Path)
    Invoke-Thing $Path
}
class Validator {
    [string]$Name
    [bool] Validate([string]$x) {
        return $true
    }
}
Function Test-Thing { }
`, []string{"Get-SessionState:1", "Validator:5", "Validator.Name:6", "Validator.Validate:7", "Test-Thing:11"}, []string{"Invoke-Thing", "param"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			defs := Definitions(tt.file, []byte(tt.src))
			got := map[string]bool{}
			names := map[string]bool{}
			var all []string
			for _, d := range defs {
				got[show(d)] = true
				names[d.Name] = true
				all = append(all, show(d))
			}
			for _, w := range tt.want {
				if !got[w] {
					t.Errorf("missing %s; got %s", w, strings.Join(all, " "))
				}
			}
			for _, n := range tt.not {
				if names[n] {
					t.Errorf("%s is no definition; got %s", n, strings.Join(all, " "))
				}
			}
		})
	}
}

func TestLanguage(t *testing.T) {
	for p, want := range map[string]string{"a.go": "go", "x/y.PY": "python", "a.tsx": "typescript", "README.md": "", "Makefile": "", "a.R": "r", "m.psm1": "powershell"} {
		if got := Language(p); got != want {
			t.Errorf("Language(%q) = %q, want %q", p, got, want)
		}
	}
}

func FuzzDefinitions(f *testing.F) {
	for _, s := range []string{"package a\nfunc F() {}\n", "class A:\n    def f(self): pass\n", "class X {\n void f() {}\n}\n", "fn main() {}\n", "function Get-X {}\n", "impl S {\n fn f() {\n  use a::{\n   B,\n  };\n }\n}\n"} {
		for _, ext := range []string{"go", "py", "ts", "java", "kt", "cs", "cpp", "rs", "rb", "php", "swift", "r", "fs", "sh", "ps1"} {
			f.Add("a."+ext, []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, p string, src []byte) {
		lines := strings.Count(string(src), "\n") + 1
		for _, d := range Definitions(p, src) {
			if d.Name == "" || d.Line < 1 || d.Line > lines {
				t.Fatalf("bad definition %+v (%d lines)", d, lines)
			}
		}
	})
}

// BenchmarkDefinitions reads a Python and a PowerShell file of about
// 2,000 lines each (the languages of the largest store).
func BenchmarkDefinitions(b *testing.B) {
	var py, ps strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&py, "class C%d(Base):\n    x: int = 0\n\n    def run_%d(self, a):\n        if a:\n            return helper(a)\n        return None\n\n\ndef f_%d():\n    pass\n", i, i, i)
		fmt.Fprintf(&ps, "function Get-Thing%d {\n    param([string]$Path)\n    if ($Path) {\n        Write-Output $Path\n    }\n}\n# comment %d\n$x = @{ a = 1 }\n\n", i, i)
	}
	srcPy, srcPs := []byte(py.String()), []byte(ps.String())
	b.SetBytes(int64(len(srcPy) + len(srcPs)))
	for b.Loop() {
		Definitions("a.py", srcPy)
		Definitions("a.ps1", srcPs)
	}
}

// FuzzShapes: a rule's shape test passes every line its expression
// matches, and so do its hints (the shape test replaces both).
func FuzzShapes(f *testing.F) {
	for _, s := range []string{"def f(x):", "  async def g():", "class A:", "X = 1", "x: int = 2",
		"    name: str", "\tv :Dict[str, int] = {}", "X == 1", "  y = 3", "define", "\fdef\vh():"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		for lang, l := range languages() {
			for i, ru := range l.rules {
				if ru.shape == nil || !ru.re.MatchString(line) {
					continue
				}
				if !ru.shape(line) {
					t.Errorf("%s rule %d: %q matches %s, and its shape rejects it", lang, i, line, ru.re)
				}
				if !hinted(line, ru.hints) {
					t.Errorf("%s rule %d: %q matches %s, and has none of its hints %q", lang, i, line, ru.re, ru.hints)
				}
			}
		}
	})
}

// BenchmarkDefinitionsPython: the definitions of a Python module of 2,000
// lines, most of them code in function bodies.
func BenchmarkDefinitionsPython(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("import os\nLIMIT = 10\n\n")
	for i := range 100 {
		fmt.Fprintf(&sb, "class Thing%d:\n    name: str\n    count: int = 0\n\n", i)
		fmt.Fprintf(&sb, "    def method_%d(self, x):\n        y = x + 1  # a comment\n        if y == %d:\n            return {\"k\": y}\n", i, i)
		sb.WriteString("        for k in range(y):\n            self.count += k\n        else:\n            pass\n        return y\n\n")
		sb.WriteString("    def check(self, data: dict[str, int], strict: bool = False) -> list[str]:\n")
		sb.WriteString("        \"\"\"Check the data: every key is known, every value: positive.\"\"\"\n")
		sb.WriteString("        if not isinstance(data, dict) or len(data) == 0:\n            raise ValueError(f\"bad data: {data!r}\")\n")
		sb.WriteString("        logger.info(\"checked %s: %d keys\", self.name, len(data))\n        try:\n            out = {k: v for k, v in data.items() if v > 0}\n")
		sb.WriteString("        except KeyError as exc:\n            return [str(exc)]\n        return sorted(out)\n\n")
		fmt.Fprintf(&sb, "async def helper_%d(a, b=None):\n    result = await a(b)\n    return result\n\n", i)
	}
	src := []byte(sb.String())
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Definitions("m.py", src)
	}
}
