# Input of the black job of make bench-startup: badly formatted on purpose.
import os, sys
from collections import namedtuple,defaultdict
Point=namedtuple( 'Point',[ 'x','y' ] )
CONFIG = { 'name':'bench','values':[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22],'nested':{'a':1,'b':(2,3)} }
class Shape ( object ) :
    '''A shape.'''
    def __init__ ( self,points,name = None,* ,closed=True ) :
        self.points=list( points );self.name=name or 'shape'
        self.closed=closed
    def area( self ):
        pts=self.points
        if len(pts)<3: return 0.0
        s=0
        for i in range( len( pts ) ):
            x1,y1=pts[i];x2,y2=pts[(i+1)%len(pts)]
            s+=x1*y2-x2*y1
        return abs( s )/2.
    def __repr__(self): return "Shape(%r, %d points)"%(self.name,len(self.points))
def group_by_quadrant(points):
    out=defaultdict(list)
    for p in points :
        key=( 'N' if p.y>=0 else 'S' )+( 'E' if p.x>=0 else 'W' )
        out[key].append( p )
    return { k:sorted(v,key=lambda p:(p.x,p.y)) for k,v in sorted( out.items() ) }
def long_call(first_argument_value, second_argument_value, third_argument_value, fourth_argument_value=None):
    return [first_argument_value, second_argument_value, third_argument_value, fourth_argument_value]
async def fetch_all(urls,* ,limit=10):
    results=[]
    async with limit_ctx( limit ) as ctx :
        for u in urls : results.append( await ctx.get( u ) )
    return results
def limit_ctx(n): raise NotImplementedError
if __name__=='__main__' :
    sq=Shape([(0,0),(0,1),(1,1),(1,0)],name='square')
    print(sq,sq.area(),group_by_quadrant([Point(1,2),Point(-1,2),Point(1,-2),Point(-3,-4)]))
    print( long_call( 'aaaaaaaaaaaaaaaa','bbbbbbbbbbbbbbbbbbbbb','cccccccccccccccccccc',fourth_argument_value='dddddddddd' ) )
    print(sys.version_info>=(3,8),os.sep)
