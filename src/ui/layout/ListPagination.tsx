// The page buttons under a list (download center, websites, PDFs): previous, "n / m", next; nothing for one page.
import { useLingui } from '@lingui/react/macro';
import { ButtonGroup, IconButton, Pagination } from '@chakra-ui/react';
import { ChevronLeft, ChevronRight } from 'lucide-react';

export function ListPagination(props: { total: number; size: number; page: number; onPage(page: number): void }) {
  const { t } = useLingui();
  if (props.total <= props.size) return null;
  return (
    <Pagination.Root
      count={props.total}
      pageSize={props.size}
      page={props.page}
      onPageChange={(e) => props.onPage(e.page)}
      alignSelf="center"
    >
      <ButtonGroup variant="ghost" size="sm">
        <Pagination.PrevTrigger asChild>
          <IconButton aria-label={t`上一页`}>
            <ChevronLeft />
          </IconButton>
        </Pagination.PrevTrigger>
        <Pagination.PageText />
        <Pagination.NextTrigger asChild>
          <IconButton aria-label={t`下一页`}>
            <ChevronRight />
          </IconButton>
        </Pagination.NextTrigger>
      </ButtonGroup>
    </Pagination.Root>
  );
}
